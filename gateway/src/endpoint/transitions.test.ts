import { describe, expect, it } from "vitest";
import { assertTransition, type Operation, statesFor } from "./transitions.js";

describe("the transition table (spec section 3)", () => {
  it.each<[Operation, string[]]>([
    ["login", []],
    ["checkcredentials", []],
    ["oauth", []],
    ["recovery/recover", []],
    ["recovery/checklink", []],
    ["checkpassword", ["checkpassword"]],
    ["checkotp", ["checkotp"]],
    ["renewotp", ["checkotp"]],
    ["setpassword", ["recovery-setpassword", "setpassword"]],
    ["acceptdisclaimers", ["acceptdisclaimers"]],
    ["recovery/checkotp", ["recovery-checkotp"]],
    ["recovery/renewotp", ["recovery-checkotp"]],
    ["recovery/checkquestion", ["recovery-checkquestion"]],
    ["logout", ["any"]],
    ["sessions", ["authorized"]],
    ["sessions/end", ["authorized"]],
    ["events", ["authorized"]],
    ["totp/enrol", ["authorized"]],
    ["totp/confirm", ["authorized"]],
    ["passkeys/start", []],
    ["checkpasskey", ["checkotp", "checkpassword"]],
    ["passkeys/enrol", ["authorized"]],
    ["passkeys/confirm", ["authorized"]],
    ["passkeys/list", ["authorized"]],
    ["passkeys/rename", ["authorized"]],
    ["passkeys/remove", ["authorized"]],
    ["backupcodes/generate", ["authorized"]],
    ["phone/change", ["authorized"]],
    ["phone/confirm", ["authorized"]],
    ["email/change", ["authorized"]],
    ["email/confirm", []],
  ])("%s takes a token in %j", (operation, states) => {
    expect([...statesFor(operation)].sort()).toEqual(states);
  });

  it("lets checkquestion finish only a question recovery, never a phone recovery (docs/api-contract.md, Recovery)", () => {
    expect(() =>
      assertTransition("recovery/checkquestion", "recovery-checkotp", "recovery-setpassword"),
    ).toThrow();
  });

  it("allows the moves of the table", () => {
    expect(() => assertTransition("checkpassword", "checkpassword", "authorized")).not.toThrow();
    expect(() => assertTransition("login", null, "checkotp")).not.toThrow();
    expect(() => assertTransition("setpassword", "recovery-setpassword", null)).not.toThrow();
    expect(() => assertTransition("logout", "authorized", null)).not.toThrow();
  });

  it("refuses moves the table does not have", () => {
    expect(() => assertTransition("checkpassword", "checkpassword", "acceptdisclaimers")).toThrow();
    expect(() => assertTransition("login", null, "authorized")).toThrow();
    expect(() => assertTransition("setpassword", "setpassword", null)).toThrow();
    expect(() => assertTransition("checkotp", "checkotp", "checkotp")).toThrow();
    // A passkey in checkotp is the second factor: it never leads to the disclaimers' own step.
    expect(() => assertTransition("checkpasskey", "checkotp", "acceptdisclaimers")).toThrow();
  });
});
