/** --portal NAME, --all-portals and --portals-at-once: choosing portals of the config file. */
import type { Argv } from "yargs";
import { DEFAULT_PORTALS_AT_ONCE } from "../config/defaults.js";

const PORTALS = "Portals:";

/** --portal alone, for a command that works on one portal at a time. */
export function withPortalOption<T>(y: Argv<T>, portalDescription: string) {
  return y.option("portal", { type: "string", group: PORTALS, description: portalDescription });
}

export function withPortalOptions<T>(y: Argv<T>, portalDescription: string) {
  return (
    withPortalOption(y, portalDescription)
      .option("all-portals", {
        type: "boolean",
        group: PORTALS,
        description: 'Every portal under "portals" in the config file, each on its own database',
      })
      .option("portals-at-once", {
        type: "number",
        group: PORTALS,
        description: `With --all-portals: how many portals run at once (default ${DEFAULT_PORTALS_AT_ONCE}; env LMS_PORTALS_AT_ONCE)`,
      })
      .conflicts("portal", "all-portals")
      // Alone it would be ignored: a command line meant for a batch that runs one portal.
      .implies("portals-at-once", "all-portals")
  );
}
