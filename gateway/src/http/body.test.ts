import { AuthError } from "@auth/errors";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonObject, validateBody } from "./body.js";

const codeOf = (run: () => unknown) => {
  try {
    run();
    return "accepted";
  } catch (error) {
    return error instanceof AuthError ? error.code : String(error);
  }
};

describe("request body", () => {
  it("reads an empty body as {}", () => {
    expect(parseJsonObject(Buffer.alloc(0))).toEqual({});
    expect(parseJsonObject(undefined)).toEqual({});
  });

  it("reads a JSON object", () => {
    expect(parseJsonObject(Buffer.from('{"login_id":"ann"}'))).toEqual({ login_id: "ann" });
  });

  it.each([["not json"], ["[1]"], ['"text"'], ["42"], ["null"]])("refuses %j", (text) => {
    expect(codeOf(() => parseJsonObject(Buffer.from(text)))).toBe("request.validation.failed");
  });

  it("refuses invalid UTF-8 instead of reading replacement characters", () => {
    expect(codeOf(() => parseJsonObject(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])))).toBe(
      "request.validation.failed",
    );
  });

  it("validates against the endpoint's schema and drops unknown fields", () => {
    const schema = z.object({ login_id: z.string() });
    expect(validateBody(schema, { login_id: "ann", extra: 1 })).toEqual({ login_id: "ann" });
    expect(codeOf(() => validateBody(schema, { login_id: 1 }))).toBe("request.validation.failed");
  });
});
