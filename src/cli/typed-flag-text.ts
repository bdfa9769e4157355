/**
 * What was typed for a flag on the command line, for messages that must show the user's own
 * text: yargs has by then turned it into a number (NaN, Infinity, 1e12 written out).
 */

/**
 * Every text given to `--name`, in order (`--name text` and `--name=text`). Words after a lone
 * `--` are left: they belong to the command run after it (`schedule … -- extract …`), which
 * parses them itself.
 */
export function typedTexts(name: string, argv: readonly string[]): string[] {
  const texts: string[] = [];
  for (const [i, arg] of argv.entries()) {
    if (arg === "--") break;
    const next = argv[i + 1];
    if (arg.startsWith(`--${name}=`)) texts.push(arg.slice(name.length + 3));
    else if (arg === `--${name}` && next !== undefined) texts.push(next);
  }
  return texts;
}
