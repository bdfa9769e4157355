/**
 * What the command line keeps between runs besides the database: the form of `Authorization`
 * each portal accepted (src/api/remembered-form.ts). Under `$XDG_STATE_HOME/lms-export`, or
 * `~/.local/state/lms-export` without it, as the XDG base directories place a program's state.
 */
import { isAbsolute, join } from "node:path";
import { homeOf } from "./setting-path.js";

/** The JSON file of the forms portals accepted, for the environment `env`. */
export function authFormsFile(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.XDG_STATE_HOME;
  // The specification says a relative value is to be ignored.
  const base =
    state !== undefined && isAbsolute(state) ? state : join(homeOf(env), ".local", "state");
  return join(base, "lms-export", "authorization-forms.json");
}
