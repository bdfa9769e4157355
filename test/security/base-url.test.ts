import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { checkBaseUrl } from "../../src/security/base-url.js";
import { isLoopbackHost } from "../../src/security/loopback.js";

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LmsExportError);
    expect((error as LmsExportError).code).toBe("bad-input");
    const message = (error as LmsExportError).message;
    expect(message).not.toContain("\n");
    return message;
  }
  throw new Error("expected a bad-input error");
}

describe("checkBaseUrl", () => {
  it("accepts https anywhere and answers the parsed URL", () => {
    const url = checkBaseUrl("https://lms.example.com/api-v2", false);
    expect(url.hostname).toBe("lms.example.com");
    expect(url.pathname).toBe("/api-v2");
  });

  it.each([
    "http://127.0.0.1:8080/api-v2",
    "http://127.4.5.6/api-v2",
    "http://localhost:3000/api-v2",
    "http://LOCALHOST/api-v2",
    "http://[::1]:9000/api-v2",
    "http://[::ffff:127.0.0.1]/api-v2",
  ])("accepts plain http to the loopback host %s", (url) => {
    expect(checkBaseUrl(url, false).protocol).toBe("http:");
  });

  it.each([
    "http://lms.example.com/api-v2",
    "http://10.0.0.5/api-v2",
    "http://128.0.0.1/api-v2",
    "http://localhost.example.com/api-v2",
    "http://[::2]/api-v2",
    "http://[::ffff:10.0.0.1]/api-v2",
  ])("refuses plain http to %s without allowHttp, saying what to do", (url) => {
    const message = usageMessage(() => checkBaseUrl(url, false));
    expect(message).toContain("plain http");
    expect(message).toContain("https://");
    expect(message).toContain("--allow-http");
  });

  it("accepts plain http anywhere with allowHttp", () => {
    expect(checkBaseUrl("http://lms.example.com/api-v2", true).hostname).toBe("lms.example.com");
  });

  it.each(["ftp://lms.example.com/api-v2", "file:///etc/passwd", "ws://127.0.0.1/api"])(
    "refuses the scheme of %s even with allowHttp",
    (url) => {
      const message = usageMessage(() => checkBaseUrl(url, true));
      expect(message).toMatch(/uses the (ftp|file|ws) scheme/);
      expect(message).toContain("https://");
    },
  );

  it("refuses credentials in the URL and never repeats them", () => {
    const message = usageMessage(() =>
      checkBaseUrl("https://admin:s3cret-pass@lms.example.com/api-v2", false),
    );
    expect(message).toContain("https://lms.example.com/api-v2");
    expect(message).toContain("user name or password");
    expect(message).toContain("--api-key-file");
    expect(message).not.toContain("s3cret-pass");
    expect(message).not.toContain("admin");
  });

  it.each([
    "https://lms.example.com/api-v2?apikey=qs-secret-41",
    "https://lms.example.com/api-v2?tenant=qs-secret-41",
    "https://lms.example.com/api-v2#qs-secret-41",
  ])("refuses a query string or fragment in %s, without echoing it", (url) => {
    const message = usageMessage(() => checkBaseUrl(url, false));
    expect(message).toContain("has a query string or fragment");
    expect(message).toContain("https://lms.example.com/api-v2 ");
    expect(message).not.toContain("qs-secret-41");
  });

  it("refuses text that is not a URL, without echoing credentials", () => {
    const message = usageMessage(() => checkBaseUrl("lms.example.com/api-v2", false));
    expect(message).toContain("not a valid URL");
    const hidden = usageMessage(() => checkBaseUrl("https://u:topsecret@exa mple.com", false));
    expect(hidden).not.toContain("topsecret");
    // Without a scheme: `key@host` does not parse, `user:key@host` parses as the scheme "user".
    for (const url of ["topsecret@lms.example.com", "admin:topsecret@lms.example.com/api-v2"]) {
      expect(usageMessage(() => checkBaseUrl(url, false))).not.toContain("topsecret");
    }
  });
});

describe("isLoopbackHost", () => {
  it("knows loopback names from look-alikes", () => {
    expect(isLoopbackHost("127.0.0.1")).toBe(true);
    expect(isLoopbackHost("[::1]")).toBe(true);
    expect(isLoopbackHost("localhost.")).toBe(true);
    expect(isLoopbackHost("127.0.0.1.nip.io")).toBe(false);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
  });
});

describe("the library client's base URL", () => {
  it("refuses plain http to another machine unless allowHttp, and takes it on this one", async () => {
    const make = (baseUrl: string, allowHttp?: boolean) =>
      createClient({ baseUrl, apiKey: "k", ...(allowHttp === undefined ? {} : { allowHttp }) });
    expect(() => make("http://lms.example.com/api-v2")).toThrow(
      "the base URL http://lms.example.com is plain http to another machine",
    );
    for (const client of [
      make("http://lms.example.com/api-v2", true),
      make("http://127.0.0.1:8080/api-v2"),
      make("https://lms.example.com/api-v2"),
    ]) {
      await client.close();
    }
  });
});
