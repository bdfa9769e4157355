/**
 * What the --postgres URL may say: libpq's socket form with a role and no host is read, and the
 * parameters that would name another target than the address (?port=, ?user=, ?dbname=,
 * ?hostaddr=) are refused rather than ignored; the password file's path is read as other path
 * settings are. Parsing only: nothing connects.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { pgSettings } from "../../src/publish/postgres/connection-settings.js";
import { tempDir } from "../helpers/temp-dir.js";

const env = { PGPASSWORD: "unused", PGPASSFILE: "/nonexistent" };

describe("the --postgres URL", () => {
  test("a role and no host, the socket folder in ?host=, as libpq writes it", async () => {
    const settings = await pgSettings("postgres://lms_writer@/analytics?host=/run/postgresql", env);
    expect(settings.client).toMatchObject({
      host: "/run/postgresql",
      user: "lms_writer",
      database: "analytics",
      port: 5432,
    });
  });

  test("a role and no host or socket folder is refused: libpq's default socket differs by system", async () => {
    await expect(pgSettings("postgres://lms_writer@/analytics", env)).rejects.toMatchObject({
      code: "bad-input",
      message: expect.stringContaining("the --postgres URL names no server"),
    });
    const port = await pgSettings(
      "postgres://lms_writer@:5433/analytics?host=/run/postgresql",
      env,
    );
    expect(port.client).toMatchObject({ host: "/run/postgresql", port: 5433 });
  });

  test.each([
    ["port", "postgresql:///analytics?host=127.0.0.1&port=55432", "the port after the host"],
    ["user", "postgres://127.0.0.1/analytics?user=lms_writer", "the role before the host"],
    ["dbname", "postgres://u@127.0.0.1/?dbname=analytics", "the database as the path"],
    ["hostaddr", "postgres://u@db.example/analytics?hostaddr=10.0.0.9", "the server as the host"],
  ])(
    "?%s= is refused, saying where it goes: read as ignored, it went elsewhere",
    async (name, url, place) => {
      await expect(pgSettings(url, env)).rejects.toMatchObject({
        code: "bad-input",
        message: expect.stringContaining(
          `the --postgres URL's ?${name}= is not read: write ${place}`,
        ),
      });
    },
  );
});

describe("the password file LMS_PG_PASSWORD_FILE names", () => {
  test("a leading ~/ is the home folder, as in every path setting", async () => {
    const home = await tempDir();
    await writeFile(join(home, "pg-password"), "s3cret-pw\n", { mode: 0o600 });
    const settings = await pgSettings("postgres://lms_writer@127.0.0.1:5432/analytics", {
      HOME: home,
      LMS_PG_PASSWORD_FILE: "~/pg-password",
    });
    expect(settings.password).toBe("s3cret-pw");
  });
});
