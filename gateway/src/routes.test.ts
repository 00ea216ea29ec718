import { describe, expect, expectTypeOf, it } from "vitest";
import { type Operation, sessionless, transitions } from "./endpoint/transitions.js";
import { endpoints } from "./routes.js";

describe("the routes", () => {
  it("have one endpoint for each operation of the transition table, and each sessionless one", () => {
    const operations = [...new Set([...transitions.map((t) => t.operation), ...sessionless])].sort();
    expect(endpoints.map((endpoint) => endpoint.operation).sort()).toEqual(operations);
    expectTypeOf<(typeof endpoints)[number]["operation"]>().toEqualTypeOf<Operation>();
  });
});
