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

describe("control characters in a body", () => {
  const schema = z.object({
    login_id: z.string(),
    password: z.string().optional(),
    accept_disclaimers: z.array(z.string()).optional(),
  });
  const refusal = (body: Record<string, unknown>) => {
    try {
      validateBody(schema, body);
      return "accepted";
    } catch (error) {
      return error instanceof AuthError ? `${error.code} (${error.message})` : String(error);
    }
  };

  it.each([
    ["NUL", "\u0000"],
    ["U+0001", "\u0001"],
    ["TAB", "\t"],
    ["a line feed", "\n"],
    ["U+001F", "\u001f"],
    ["DEL", "\u007f"],
  ])("refuse %s in any field with request.validation.failed, naming the field", (_, character) => {
    expect(refusal({ login_id: `ann${character}` })).toBe(
      "request.validation.failed (login_id: must not contain control characters)",
    );
    expect(refusal({ login_id: "ann", password: `${character}secret-1` })).toBe(
      "request.validation.failed (password: must not contain control characters)",
    );
    expect(refusal({ login_id: "ann", accept_disclaimers: ["tos", `x${character}`] })).toBe(
      "request.validation.failed (accept_disclaimers.1: must not contain control characters)",
    );
  });

  it("leave alone the fields the endpoint does not read, which are dropped", () => {
    expect(refusal({ login_id: "ann", extra: "\u0000" })).toBe("accepted");
  });

  it("accept text in any script, and spaces", () => {
    expect(refusal({ login_id: "Zoë Ångström 山田", password: "correct horse battery staple" })).toBe(
      "accepted",
    );
  });
});
