/**
 * The argv type of a command whose builder is a named function, so its handler can be one too
 * and still see every option with the type yargs infers for it.
 */
import type { ArgumentsCamelCase, Argv } from "yargs";

export type CommandArgs<Builder extends (y: Argv) => unknown> =
  ReturnType<Builder> extends Argv<infer Parsed> ? ArgumentsCamelCase<Parsed> : never;
