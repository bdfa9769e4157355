import { describe, expect, it } from "vitest";
import { columnLabel } from "../../../src/report/present/column-label.js";

describe("columnLabel", () => {
  it("turns snake_case into a sentence-case label", () => {
    expect(columnLabel("days_overdue")).toBe("Days overdue");
    expect(columnLabel("completion_rate")).toBe("Completion rate");
    expect(columnLabel("take_score")).toBe("Take score");
  });

  it("writes known words and names as people expect them", () => {
    expect(columnLabel("user_id")).toBe("User ID");
    expect(columnLabel("firstname")).toBe("First name");
    expect(columnLabel("email")).toBe("E-mail");
    expect(columnLabel("product_ids")).toBe("Product IDs");
    expect(columnLabel("id")).toBe("ID");
  });

  it("prefers the query's own label", () => {
    expect(columnLabel("due", new Map([["due", "Due on"]]))).toBe("Due on");
  });

  it("keeps a name it cannot split", () => {
    expect(columnLabel("_")).toBe("_");
  });
});
