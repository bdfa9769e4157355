/**
 * The command a user typed to start lms-export, for lines that suggest what to type next. After
 * `npm install -g` or `npm link`, `lms-export` is a command of its own; through npx (or an npm
 * script, which finds it in node_modules/.bin) it is `npx lms-export`.
 */
import { basename } from "node:path";

/** The name npm gives the command it installs (package.json's "bin"). */
const BIN_NAME = "lms-export";

/**
 * Contract: `lms-export` when the process was started through the installed command (`script`,
 * the path node ran, named as the bin: npm keeps a link of that name on PATH) and not by npm;
 * otherwise `npx lms-export`. npm sets npm_lifecycle_event for everything it starts ("npx" for
 * npx and npm exec), whose bin may be one on no PATH of the user's.
 */
export function invokedCommand(
  env: Readonly<Record<string, string | undefined>>,
  script: string | undefined,
): string {
  const startedByNpm = env.npm_lifecycle_event !== undefined || env.npm_command !== undefined;
  const installed = script !== undefined && basename(script) === BIN_NAME;
  return installed && !startedByNpm ? BIN_NAME : `npx ${BIN_NAME}`;
}
