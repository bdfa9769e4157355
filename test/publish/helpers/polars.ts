/**
 * nodejs-polars, the lake's independent reader. Its native code comes in a platform package
 * (nodejs-polars-linux-x64-gnu here) that `npm ci` installs from the lock file; without it the
 * import fails, and the tests say so rather than skip.
 */
export type Polars = typeof import("nodejs-polars").default;

export async function loadPolars(): Promise<Polars> {
  try {
    return (await import("nodejs-polars")).default;
  } catch (error) {
    throw new Error(
      `nodejs-polars cannot load its native binary (${(error as Error).message.split("\n")[0]}); run "npm ci" so its platform package is installed`,
    );
  }
}
