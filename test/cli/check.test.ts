/**
 * `lms-export check` as a user runs it: real child processes against a simulated portal started
 * with `simulate --port 0`, with the right key, a wrong key, and no portal address.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTlsPortal } from "../api/tls-portal.js";
import { runCli, spawnCli } from "../helpers/spawn-cli.js";

const KEY = "check-key-0c4e9f27";
let dir: string;
let portal: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-check-"));
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  portal = spawnCli(["simulate", "--port", "0", "--users", "20", "--api-key", KEY]);
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    portal.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    portal.once("exit", (code) => reject(new Error(`simulate exited with ${code}`)));
  });
});
afterAll(async () => {
  portal?.kill("SIGTERM");
  await rm(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.trimEnd().split("\n");

describe("lms-export check", () => {
  it("passes all six checks with the right key, one line each, exit 0", async () => {
    const run = await runCli(["check"], {
      cwd: dir,
      env: { LMS_BASE_URL: baseUrl, LMS_API_KEY_FILE: join(dir, "key"), LMS_API_KEY: undefined },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout).map((line) => line.split(":")[0])).toEqual([
      "✓ configuration",
      "✓ API key",
      "✓ database",
      "✓ portal reachable",
      "✓ token",
      "✓ list call",
    ]);
    expect(run.stdout).toContain(`portal ${baseUrl}`);
    expect(run.stdout).toMatch(/groups in all/);
    expect(run.stdout).toContain(
      `✓ database: ${join(dir, "lms.duckdb")} does not exist yet; the first extract makes it\n`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  });

  it("checks the mail settings and the shared report parameters a report would use", async () => {
    const config = join(dir, "mail.json");
    const env = { LMS_API_KEY_FILE: join(dir, "key"), LMS_API_KEY: undefined };
    const write = (mail: Record<string, unknown>) =>
      writeFile(
        config,
        JSON.stringify({ baseUrl, mail, report: { params: { due_dayz: 3 } }, allowHttp: true }),
      );
    await write({ smtpUrl: "smtp://127.0.0.1:2525", from: "not an address", defaultTo: "x" });
    const bad = await runCli(["check", "--config", config], { cwd: dir, env });
    expect(bad.code).toBe(2);
    const shown = lines(bad.stdout);
    expect(shown.slice(0, 3)).toEqual([
      `✓ configuration: portal ${baseUrl} (settings from environment and ${config})`,
      `✗ mail settings: the sender "not an address" (from ${config} (mail.from)) is not an e-mail address: give one such as reports@example.com`,
      `! report parameters: report parameter due_dayz from ${config} (report.params) is declared by no query of the catalog, so no report uses it; did you mean "due_days"?`,
    ]);
    expect(shown.slice(3).every((line) => line.startsWith("✓"))).toBe(true);
    expect(bad.stderr).toBe("lms-export: check failed: 1 of 7 checks\n");

    await write({ smtpUrl: "smtp://ops:hunter2-secret@127.0.0.1:2525", from: "r@example.com" });
    const password = await runCli(["check", "--config", config], { cwd: dir, env });
    // Refused with the settings, before any check runs, as by every command.
    expect(password.code).toBe(2);
    expect(lines(password.stdout)[0]).toMatch(/^✗ configuration: .* contains a password/);
    expect(`${password.stdout}${password.stderr}`).not.toContain("hunter2-secret");

    await write({
      smtpUrl: "smtp://127.0.0.1:2525",
      from: "r@example.com",
      defaultTo: "a@example.com",
    });
    const good = await runCli(["check", "--config", config], { cwd: dir, env });
    expect(good.code, good.stderr).toBe(0);
    expect(lines(good.stdout)[1]).toBe(
      "✓ mail settings: smtp://127.0.0.1:2525, from r@example.com, default recipients a@example.com (not connected)",
    );

    // Whom a failed run tells, listed; an address among them that is none fails the line.
    const failuresTo = (failuresTo: unknown) =>
      write({ smtpUrl: "smtp://127.0.0.1:2525", from: "r@example.com", failuresTo });
    await failuresTo(["Ops@example.com", "lead@example.com"]);
    const told = await runCli(["check", "--config", config], { cwd: dir, env });
    expect(lines(told.stdout)[1]).toBe(
      "✓ mail settings: smtp://127.0.0.1:2525, from r@example.com, no default recipients, failures told to ops@example.com, lead@example.com (not connected)",
    );
    await failuresTo("ops(at)example.com");
    const typo = await runCli(["check", "--config", config], { cwd: dir, env });
    expect(typo.code).toBe(2);
    expect(lines(typo.stdout)[1]).toBe(
      `✗ mail settings: ${config} (mail.failuresTo): "ops(at)example.com" is not an e-mail address; give plain addresses such as compliance@example.com, separated by commas`,
    );
  });

  it("fails the token with a wrong key, exit 2 as extract gives, never printing the key", async () => {
    const wrong = "wrong-key-e81d55aa90";
    const run = await runCli(["check", "--base-url", baseUrl], {
      cwd: dir,
      env: { LMS_API_KEY: wrong, LMS_API_KEY_FILE: undefined, LMS_BASE_URL: undefined },
    });
    expect(run.code).toBe(2);
    const shown = lines(run.stdout);
    expect(shown.slice(0, 3).every((line) => line.startsWith("✓"))).toBe(true);
    expect(shown[4]).toMatch(/^✗ token: .*refused the API key .*: check the key in LMS_API_KEY$/);
    expect(shown[5]).toBe("✗ list call: not tried (no token)");
    expect(run.stderr).toBe("lms-export: check failed: 2 of 6 checks\n");
    expect(`${run.stdout}${run.stderr}`).not.toContain(wrong);
  });

  it("answers 2 for a bad configuration and 1 for a portal that is not there", async () => {
    const none = await runCli(["check"], {
      cwd: dir,
      env: { LMS_BASE_URL: undefined, LMS_API_KEY_FILE: join(dir, "key") },
    });
    expect(none.code).toBe(2);
    expect(lines(none.stdout)).toEqual([
      "✗ configuration: no portal address: pass --base-url URL or set LMS_BASE_URL",
    ]);
    const closed = await runCli(["check", "--base-url", "http://127.0.0.1:9/api-v2"], {
      cwd: dir,
      env: { LMS_API_KEY_FILE: join(dir, "key") },
    });
    expect(closed.code).toBe(1);
    expect(closed.stdout).toMatch(/^✗ portal reachable: .*ECONNREFUSED/m);
  });

  it("names the flags and the environment among the settings' sources when they won", async () => {
    const own = await mkdtemp(join(dir, "origin-"));
    const config = join(own, "lms-export.config.json");
    const write = (address: string) =>
      writeFile(
        config,
        JSON.stringify({ baseUrl: address, allowHttp: true, apiKeyFile: join(dir, "key") }),
      );
    await write(baseUrl.replace("/api-v2", "/other-v2"));
    const unset = { LMS_BASE_URL: undefined, LMS_API_KEY_FILE: undefined, LMS_API_KEY: undefined };
    const first = async (args: string[], env: Record<string, string | undefined>) =>
      lines((await runCli(["check", ...args], { cwd: own, env })).stdout)[0];
    expect(await first(["--base-url", baseUrl], unset)).toBe(
      `✓ configuration: portal ${baseUrl} (settings from flags and ${config})`,
    );
    expect(await first([], { ...unset, LMS_BASE_URL: baseUrl })).toBe(
      `✓ configuration: portal ${baseUrl} (settings from environment and ${config})`,
    );
    await write(baseUrl);
    expect(await first([], unset)).toBe(
      `✓ configuration: portal ${baseUrl} (settings from ${config})`,
    );
    // Several runs of the built CLI, one after another: past 60 s on a loaded machine.
  }, 180_000);

  it("words a failed TLS connection as extract does, with what to do, on one line", async () => {
    const env = { LMS_BASE_URL: undefined, LMS_API_KEY_FILE: join(dir, "key") };
    const plain = baseUrl.replace(/^http:/, "https:");
    const wrongScheme = await runCli(["check", "--base-url", plain], { cwd: dir, env });
    expect(wrongScheme.code).toBe(1);
    const origin = new URL(plain).origin;
    expect(lines(wrongScheme.stdout).slice(3)).toEqual([
      `✗ portal reachable: could not connect securely to ${origin}: the TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER); check that the base URL's scheme and port are the portal's HTTPS ones`,
      "✗ token: not tried (the portal is unreachable)",
      "✗ list call: not tried (the portal is unreachable)",
    ]);
    const tls = await startTlsPortal(await mkdtemp(join(dir, "tls-")));
    try {
      const selfSigned = await runCli(["check", "--base-url", tls.baseUrl], { cwd: dir, env });
      expect(lines(selfSigned.stdout)[3]).toMatch(
        /^✗ portal reachable: could not connect securely to https:\/\/127\.0\.0\.1:\d+: its certificate is not signed by an authority trusted here \(DEPTH_ZERO_SELF_SIGNED_CERT\); .* set NODE_EXTRA_CA_CERTS to a PEM file/,
      );
    } finally {
      await tls.close();
    }
  });

  it("--portal checks that portal of the config file, --all-portals each, naming the failed ones", async () => {
    const portalsDir = await mkdtemp(join(dir, "portals-"));
    await writeFile(join(portalsDir, "good.key"), `${KEY}\n`, { mode: 0o600 });
    await writeFile(join(portalsDir, "bad.key"), "not-the-key-7f1d\n", { mode: 0o600 });
    const portals = {
      good: { baseUrl, apiKeyFile: "good.key" },
      bad: { baseUrl, apiKeyFile: "bad.key" },
    };
    await writeFile(join(portalsDir, "lms-export.config.json"), JSON.stringify({ portals }));
    const env = { LMS_BASE_URL: undefined, LMS_API_KEY_FILE: undefined, LMS_API_KEY: undefined };
    const one = await runCli(["check", "--portal", "good"], { cwd: portalsDir, env });
    expect(one.code, one.stderr).toBe(0);
    expect(lines(one.stdout).every((line) => line.startsWith("✓"))).toBe(true);
    expect(one.stdout).toContain(`the key file ${join(portalsDir, "good.key")}`);
    const unknown = await runCli(["check", "--portal", "nope"], { cwd: portalsDir, env });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('--portal nope is not under "portals" in the config file');
    const all = await runCli(["check", "--all-portals"], { cwd: portalsDir, env });
    const shown = lines(all.stdout);
    expect(shown[0]).toBe("[good]");
    expect(shown.slice(1, 7).every((line) => line.startsWith("✓"))).toBe(true);
    expect(shown[7]).toBe("[bad]");
    expect(shown[12]).toMatch(/^✗ token: .*refused the API key/);
    // A refused key is the setup's fault, as for one portal: exit 2.
    expect(all.code).toBe(2);
    expect(all.stderr).toBe("lms-export: check failed for 1 of 2 portals: bad\n");
    expect(`${all.stdout}${all.stderr}`).not.toContain("not-the-key-7f1d");
    // A refused key and a missing key file fail differently, but both are the setup's: still 2.
    const withMissing = { ...portals, nokey: { baseUrl, apiKeyFile: "missing.key" } };
    await writeFile(
      join(portalsDir, "lms-export.config.json"),
      JSON.stringify({ portals: withMissing }),
    );
    const both = await runCli(["check", "--all-portals"], { cwd: portalsDir, env });
    expect(both.stderr).toBe("lms-export: check failed for 2 of 3 portals: bad, nokey\n");
    expect(both.code).toBe(2);
    // An entry without its address is told to get one there: LMS_BASE_URL is never its.
    const config = join(portalsDir, "lms-export.config.json");
    await writeFile(
      config,
      JSON.stringify({ portals: { ...portals, bare: { apiKeyFile: "good.key" } } }),
    );
    const bare = await runCli(["check", "--portal", "bare"], { cwd: portalsDir, env });
    expect(bare.code).toBe(2);
    expect(lines(bare.stdout)).toEqual([
      `✗ configuration: portal "bare" has no address: set "portals.bare.baseUrl" in ${config} (or pass --base-url URL); LMS_BASE_URL and the top-level "baseUrl" never apply to a portal of the config file`,
    ]);
  });
});
