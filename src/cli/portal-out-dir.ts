/**
 * Where the reports of a named portal (--portal) go: a folder of the portal's own under the output
 * folder. Run once per portal, as the refusal of `run --all-portals` advises, the reports of every
 * portal would otherwise share one folder and file names, each run replacing the files of the one
 * before.
 */
import { join } from "node:path";
import type { ResolvedConfig } from "../config/resolve.js";

/** `setup` with its output folder moved into the portal's own, when a portal is named. */
export function withPortalOutDir<S extends { readonly config: ResolvedConfig }>(setup: S): S {
  const { portal, outDir } = setup.config;
  if (portal === undefined) return setup;
  return { ...setup, config: { ...setup.config, outDir: join(outDir, portal) } };
}
