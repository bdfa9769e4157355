/**
 * The SMTP decisions made before anything connects: TLS per URL and host (never connecting
 * outside this machine), the settings' sources, and what to retry after a failed attempt.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defaultRecipients } from "../../src/cli/mail-step.js";
import { resolveConfig } from "../../src/config/resolve.js";
import { createRedactor } from "../../src/log/redact.js";
import { afterFailure } from "../../src/mail/deliver.js";
import { resolveMailSettings } from "../../src/mail/settings.js";
import { SmtpAttemptError } from "../../src/mail/smtp-attempt.js";
import { smtpSecurity } from "../../src/mail/smtp-security.js";

describe("smtpSecurity", () => {
  const decide = (url: string, allow = false) => smtpSecurity(new URL(url), allow, "LMS_SMTP_URL");

  test("STARTTLS is optional on this machine only", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "[::1]"]) {
      expect(decide(`smtp://${host}:25`)).toEqual({ secure: false, requireTLS: false });
    }
    for (const host of [
      "mail.example.com",
      "10.0.0.5",
      "192.168.1.1",
      "[2001:db8::1]",
      "localhost.example.com",
    ]) {
      expect(decide(`smtp://${host}:587`)).toEqual({ secure: false, requireTLS: true });
    }
  });

  test("--allow-insecure-smtp lets a plain session reach another host", () => {
    expect(decide("smtp://mail.example.com:25", true)).toEqual({
      secure: false,
      requireTLS: false,
    });
  });

  test("smtps:// is TLS from the start; other schemes are refused", () => {
    expect(decide("smtps://mail.example.com:465")).toEqual({ secure: true, requireTLS: false });
    expect(() => decide("http://mail.example.com")).toThrow(
      /uses the http scheme: use smtp:\/\/host:port/,
    );
  });
});

describe("resolveMailSettings", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lms-mail-settings-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function settingsFrom(env: Record<string, string>, file?: object) {
    const cwd = await mkdtemp(join(dir, "case-"));
    if (file) await writeFile(join(cwd, "lms-export.config.json"), JSON.stringify(file));
    const config = await resolveConfig({ flags: {}, env, cwd, isTTY: false });
    return resolveMailSettings(config, env);
  }

  test("the config file's mail section, with a password file beside it", async () => {
    const cwd = await mkdtemp(join(dir, "file-"));
    await writeFile(join(cwd, "pw"), "from-file\n");
    await chmod(join(cwd, "pw"), 0o600);
    await writeFile(
      join(cwd, "lms-export.config.json"),
      JSON.stringify({
        mail: {
          from: "r@example.com",
          smtpUrl: "smtps://u%40x@mail.example.com",
          smtpPasswordFile: "pw",
        },
      }),
    );
    const config = await resolveConfig({ flags: {}, env: {}, cwd, isTTY: false });
    const settings = await resolveMailSettings(config, {});
    expect(settings).toMatchObject({
      host: "mail.example.com",
      port: 465,
      user: "u@x",
      password: "from-file",
      from: "r@example.com",
      security: { secure: true, requireTLS: false },
    });
    expect(settings.display).not.toContain("from-file");
  });

  test("the environment wins over the config file", async () => {
    const settings = await settingsFrom(
      { LMS_SMTP_URL: "smtp://127.0.0.1:2525", LMS_MAIL_FROM: "env@example.com" },
      { mail: { from: "file@example.com", smtpUrl: "smtps://mail.example.com" } },
    );
    expect(settings).toMatchObject({ host: "127.0.0.1", port: 2525, from: "env@example.com" });
  });

  test("a password written into the config file is refused", async () => {
    await expect(
      settingsFrom({}, { mail: { from: "r@example.com", password: "hunter22" } }),
    ).rejects.toThrow(/field "mail.password" is not allowed: .*mail.smtpPasswordFile/);
  });

  test.each([
    "smtp://127.0.0.1:0",
    "smtps://mail.example.com:0",
    "smtp://[::1]:0",
    "smtp://127.0.0.1:65536",
    "smtps://reports@mail.example.com:99999/",
  ])("a port outside 1-65535 is refused: %s", async (url) => {
    await expect(
      settingsFrom({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "r@example.com" }),
    ).rejects.toThrow(
      /^the mail server URL \(from LMS_SMTP_URL\) has port \d+: give a port from 1 to 65535/,
    );
  });

  test("LMS_SMTP_CONNECTIONS or mail.connections sets how many connections a mailing uses; one it cannot read is refused", async () => {
    const env = { LMS_SMTP_URL: "smtp://127.0.0.1:2525", LMS_MAIL_FROM: "r@example.com" };
    expect((await settingsFrom({ ...env, LMS_SMTP_CONNECTIONS: " 2 " })).connections).toBe(2);
    expect((await settingsFrom(env, { mail: { connections: 3 } })).connections).toBe(3);
    expect((await settingsFrom(env)).connections).toBeUndefined();
    for (const bad of ["0", "17", "2.5", "four"]) {
      await expect(settingsFrom({ ...env, LMS_SMTP_CONNECTIONS: bad })).rejects.toThrow(
        /^environment variable LMS_SMTP_CONNECTIONS must be a whole number from 1 to 16, the connections a mailing opens to the mail server at once \(1 sends one message at a time\) \(got /,
      );
    }
    await expect(settingsFrom(env, { mail: { connections: 0 } })).rejects.toThrow(
      /mail\.connections.* must be a whole number from 1 to 16/,
    );
  });

  test("a sender that is not an address is refused", async () => {
    await expect(
      settingsFrom({
        LMS_SMTP_URL: "smtp://127.0.0.1:2525",
        LMS_MAIL_FROM: "Reports <r@example.com>",
      }),
    ).rejects.toThrow(
      /the sender "Reports <r@example.com>" \(from LMS_MAIL_FROM\) is not an e-mail address/,
    );
  });
});

describe("afterFailure: a retry never delivers twice", () => {
  const failure = (fields: object, dataStarted: boolean) =>
    new SmtpAttemptError(Object.assign(new Error("x"), fields), dataStarted);

  test("before the data: connection problems and 4xx are retried, 5xx and logins are not", () => {
    expect(afterFailure(failure({ code: "ECONNECTION" }, false))).toBe("retry");
    expect(afterFailure(failure({ code: "ETIMEDOUT" }, false))).toBe("retry");
    expect(afterFailure(failure({ code: "EENVELOPE", responseCode: 451 }, false))).toBe("retry");
    expect(afterFailure(failure({ code: "EENVELOPE", responseCode: 550 }, false))).toBe("give up");
    expect(afterFailure(failure({ code: "EAUTH", responseCode: 535 }, false))).toBe("give up");
    expect(afterFailure(failure({ code: "ETLS" }, false))).toBe("give up");
  });

  test("after the data: an answer that refuses it may be retried, a lost answer never", () => {
    expect(afterFailure(failure({ code: "EMESSAGE", responseCode: 452 }, true))).toBe("retry");
    expect(afterFailure(failure({ code: "EMESSAGE", responseCode: 554 }, true))).toBe("give up");
    expect(afterFailure(failure({ code: "ECONNECTION" }, true))).toBe("unknown");
    expect(afterFailure(failure({ code: "ETIMEDOUT" }, true))).toBe("unknown");
  });
});

test("fields named like an SMTP password are redacted whatever their value", () => {
  const redact = createRedactor(() => []);
  expect(redact.fields({ pass: "a", smtpPassword: "b", smtp_password: "c", user: "u" })).toEqual({
    pass: "[redacted]",
    smtpPassword: "[redacted]",
    smtp_password: "[redacted]",
    user: "u",
  });
});

describe("default recipients", () => {
  test("a list in the config file, checked and normalised; a bad one names the file's field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lms-default-to-"));
    try {
      const file = join(dir, "lms-export.json");
      const settings = async (defaultTo: unknown) => {
        await writeFile(file, JSON.stringify({ mail: { defaultTo } }));
        const config = await resolveConfig({ flags: { config: file }, env: {}, cwd: dir });
        return defaultRecipients(config);
      };
      expect(await settings(["Compliance@Example.com", "audit@example.com"])).toEqual([
        "compliance@example.com",
        "audit@example.com",
      ]);
      expect(await settings("a@example.com, b@example.com")).toEqual([
        "a@example.com",
        "b@example.com",
      ]);
      await expect(settings(["a@example.com", "nobody"])).rejects.toThrow(
        /mail\.defaultTo.*"nobody" is not an e-mail address/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
