import { describe, expect, it } from "vitest";
import type { Reply } from "./api.js";
import { clearWhenWrong } from "./typed-secret.js";

const refusal = (error_code: string): Reply => ({ answer: { status: "error", error_code } });

/** A field as the step has it, with what the user typed. */
function typed(value: string) {
  const field = { value, focused: false, focus: () => {} };
  field.focus = () => {
    field.focused = true;
  };
  return field;
}

describe("what the user typed into a secret's field, after a refusal", () => {
  it.each([
    "auth.password.invalid",
    "auth.otp.invalid",
    "auth.backupcode.invalid",
    "auth.controlanswer.invalid",
  ])("is cleared, the focus in the first field, when %s says it is wrong", (code) => {
    const [first, second] = [typed("482913"), typed("119377")];
    clearWhenWrong(refusal(code), first, second);
    expect([first.value, second.value]).toEqual(["", ""]);
    expect([first.focused, second.focused]).toEqual([true, false]);
  });

  it.each([
    "auth.disclaimer.invalid",
    "auth.captcha.missing",
    "auth.restricted",
    "request.validation.failed",
    "request.ratelimit.exceeded",
    "service.unavailable",
  ])("stays after %s, which checked nothing", (code) => {
    const field = typed("482913");
    clearWhenWrong(refusal(code), field);
    expect(field).toMatchObject({ value: "482913", focused: false });
  });
});
