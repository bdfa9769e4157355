/**
 * Number flags whose text the number lost: yargs reads `--rate ""` (an unset variable in
 * `--rate "$RATE"`) and `--rate " "` as 0, and `--rate 1e-400` rounds to 0 too; for --rate that
 * is "no limit", over LMS_RATE and the config file, and other flags would refuse a 0 nobody typed
 * as `got 0`; `--wait ""` would wait ten minutes, `--wait 1e-400` not at all. Refused with the
 * text typed, before the command starts.
 */
import { typedTexts } from "./typed-flag-text.js";
import { commandOf, withHelp } from "./usage-message.js";

/**
 * Number flags yargs holds as text until their own coerce runs, after this check: --wait is a
 * string option so that `--wait` alone can mean its default.
 */
const TEXT_NUMBER_FLAGS = ["wait"];

const isNumbers = (value: unknown): boolean =>
  typeof value === "number" || (Array.isArray(value) && value.some((v) => typeof v === "number"));

/** Text that is a number other than 0 which the double it is read as makes 0 (`1e-400`). */
function roundsToZero(text: string): boolean {
  const mantissa = text.trim().replace(/e.*$/i, "");
  return Number(text) === 0 && /^[+-]?[\d.]+$/.test(mantissa) && /[1-9]/.test(mantissa);
}

/**
 * Contract: one line (ending like usageLine) for the first number flag in `parsed` typed as an
 * empty or blank value, or as a number other than 0 that rounds to 0; undefined when none is.
 */
export function lostNumberLine(
  parsed: Readonly<Record<string, unknown>>,
  argv: readonly string[],
  commands: readonly string[],
): string | undefined {
  // yargs keeps each option under its kebab-case and camelCase names: the kebab one is typed.
  const names = Object.keys(parsed).filter(
    (key) => !/[A-Z]/.test(key) && (isNumbers(parsed[key]) || TEXT_NUMBER_FLAGS.includes(key)),
  );
  for (const name of names) {
    for (const text of typedTexts(name, argv)) {
      const problem =
        text.trim() === ""
          ? `--${name} needs a number, got ${JSON.stringify(text)} (is the variable that should give it set?)`
          : roundsToZero(text)
            ? `--${name} got ${text}, which is too small to be told from 0: write 0 if 0 is meant, or a larger number`
            : undefined;
      if (problem !== undefined) return withHelp(problem, commandOf(argv, commands));
    }
  }
  return undefined;
}
