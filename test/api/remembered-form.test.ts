import { describe, expect, it } from "vitest";
import { AuthorizationForm } from "../../src/api/authorization-form.js";
import type { FormMemory } from "../../src/api/remembered-form.js";
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
