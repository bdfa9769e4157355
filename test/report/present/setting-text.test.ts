import { describe, expect, it } from "vitest";
import { settingText } from "../../../src/report/present/setting-text.js";

describe("settingText", () => {
  it("reads a parameter by its description, an empty value by what empty means", () => {
    const products = {
      name: "product_ids",
      description: "Required products (empty = each product a person has access to).",
    };
    expect(settingText(products, "")).toEqual({
      name: "product_ids",
      label: "Required products",
      value: "each product a person has access to",
    });
    expect(settingText(products, "3, 7")).toMatchObject({
      label: "Required products",
      value: "3, 7",
    });
    // A list as the command line gives it reads with a space after each comma, and can wrap.
    expect(settingText({ ...products, type: "int_list" }, "3,7,12").value).toBe("3, 7, 12");
    expect(settingText({ ...products, type: "string_list" }, "inactive,leaver").value).toBe(
      "inactive, leaver",
    );
    expect(settingText({ ...products, type: "string" }, "a,b").value).toBe("a,b");
  });

  it("falls back to the name as a label, and to (none) for an empty value with no meaning given", () => {
    expect(settingText({ name: "due_days", description: "" }, "")).toEqual({
      name: "due_days",
      label: "Due days",
      value: "(none)",
    });
    expect(
      settingText({ name: "today", description: "Reference day (UTC)." }, "2026-11-26"),
    ).toEqual({ name: "today", label: "Reference day (UTC)", value: "2026-11-26" });
  });
});
