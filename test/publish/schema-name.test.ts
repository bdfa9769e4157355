/**
 * Schema names `publish --schema` takes, and the one the refusal of another portal's schema
 * suggests: it must itself be a name `--schema` takes, whatever the portal is called.
 */
import { describe, expect, it } from "vitest";
import { checkPortalName } from "../../src/config/portal-name.js";
import { checkSchemaName, portalSchemaName } from "../../src/publish/postgres/schema-name.js";

describe("schema names", () => {
  it("takes identifiers of at most 50 characters and refuses the rest in one line", () => {
    expect(checkSchemaName("lms")).toBe("lms");
    expect(checkSchemaName(`_${"a".repeat(49)}`)).toHaveLength(50);
    for (const bad of ["", "1lms", "lms-north", "lms north", `a${"b".repeat(50)}`, 'lms"; --']) {
      expect(() => checkSchemaName(bad)).toThrow(/is not a schema name: use letters, digits/);
    }
    for (const upper of ["Reports", "LMS", "lms_North"]) {
      expect(() => checkSchemaName(upper)).toThrow(
        `use lower case, --schema ${upper.toLowerCase()}`,
      );
    }
  });

  it("refuses PostgreSQL's own schemas, pg_… and information_schema", () => {
    for (const system of ["pg_temp", "pg_catalog", "pg_toast", "pg_lms", "information_schema"]) {
      expect(() => checkSchemaName(system)).toThrow(
        `--schema ${system} is PostgreSQL's own (names starting with pg_, and information_schema, belong to the system): choose another, e.g. --schema lms`,
      );
    }
    // Upper case is not answered with a lower-case name that is then refused.
    for (const system of ["PG_x", "Information_Schema"]) {
      expect(() => checkSchemaName(system)).toThrow("is PostgreSQL's own");
    }
    expect(checkSchemaName("public")).toBe("public");
    expect(checkSchemaName("pg")).toBe("pg");
  });

  it("suggests a schema for another portal that --schema takes, even for the longest portal name", () => {
    const longest = checkPortalName(`9${"x-".repeat(31)}z`);
    expect(longest).toHaveLength(64);
    for (const portal of ["south", "south-2", "North", longest]) {
      const suggested = portalSchemaName("lms", portal);
      expect(checkSchemaName(suggested)).toBe(suggested);
      expect(suggested.startsWith("lms_")).toBe(true);
    }
    expect(portalSchemaName("lms", "south-2")).toBe("lms_south_2");
    expect(portalSchemaName("lms", "North-2")).toBe("lms_north_2");
  });
});
