import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AuthorizationForm } from "../../src/api/authorization-form.js";
import { type FormMemory, formMemoryFile, MAX_PORTALS } from "../../src/api/remembered-form.js";
import { silentLogger } from "../../src/log/logger.js";

/** A memory of one portal's form, in a variable. */
function memoryOf(kept: string | undefined): FormMemory & { kept: string | undefined } {
  const memory = {
    kept,
    recall: () => memory.kept,
    remember: (scheme: string) => {
      memory.kept = scheme;
    },
  };
  return memory;
}

describe("the Authorization form remembered between runs", () => {
  it("starts with the remembered form, and learns again when the portal refuses it", () => {
    const memory = memoryOf("Bearer");
    const form = new AuthorizationForm(undefined, silentLogger, memory);
    expect(form.scheme).toBe("Bearer");
    // The portal now wants the raw token: the fresh token goes again in the other form.
    expect(form.refused("t1", "Bearer", true)).toBe("resend");
    expect(form.scheme).toBe("");
    form.accepted("");
    expect(memory.kept).toBe("");
  });

  it("a configured scheme is sent as it is and not remembered", () => {
    const memory = memoryOf("Bearer");
    const form = new AuthorizationForm("", silentLogger, memory);
    expect(form.scheme).toBe("");
    form.accepted("");
    expect(memory.kept).toBe("Bearer");
  });
});

describe("the file of remembered forms", () => {
  it("keeps the newest MAX_PORTALS portals, a portal learned again moving to the end", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lms-forms-"));
    try {
      const path = join(dir, "authorization-forms.json");
      const at = (n: number) => new URL(`http://portal-${n}.example/api-v2`);
      for (let n = 0; n <= MAX_PORTALS; n++) formMemoryFile(path, at(n)).remember("Bearer");
      const kept = Object.keys(JSON.parse(await readFile(path, "utf8")) as object);
      expect(kept).toHaveLength(MAX_PORTALS);
      // The first learned went; the second is the oldest kept.
      expect(formMemoryFile(path, at(0)).recall()).toBeUndefined();
      expect(kept[0]).toBe("http://portal-1.example/api-v2");
      // Learned again in another form: now the newest, so the next new portal drops portal 2.
      formMemoryFile(path, at(1)).remember("");
      formMemoryFile(path, at(MAX_PORTALS + 1)).remember("Bearer");
      expect(formMemoryFile(path, at(1)).recall()).toBe("");
      expect(formMemoryFile(path, at(2)).recall()).toBeUndefined();
      expect(formMemoryFile(path, at(MAX_PORTALS)).recall()).toBe("Bearer");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
