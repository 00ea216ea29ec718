import { errorCodes } from "@auth/errors";
import { describe, expect, it } from "vitest";
import { errorMessages, messageFor, waitText } from "./messages.js";

describe("the page's error messages", () => {
  it("has a message for every error code the suite answers, and for no other", () => {
    expect(Object.keys(errorMessages).sort()).toEqual(Object.keys(errorCodes).sort());
  });

  it("adds the wait of a Retry-After, in seconds or minutes", () => {
    expect(waitText(1)).toBe("Try again in 1 second.");
    expect(waitText(30)).toBe("Try again in 30 seconds.");
    expect(waitText(900)).toBe("Try again in 15 minutes.");
    expect(
      messageFor({
        answer: { status: "error", error_code: "request.ratelimit.exceeded" },
        retryAfterSeconds: 5,
      }),
    ).toBe("Too many requests. Try again in 5 seconds.");
  });

  it("lets a step say it in its own words", () => {
    const reply = { answer: { status: "error", error_code: "auth.token.invalid" } } as const;
    expect(messageFor(reply, { "auth.token.invalid": "This link was used before." })).toBe(
      "This link was used before.",
    );
    expect(messageFor(reply)).toBe(errorMessages["auth.token.invalid"]);
  });

  it("names a code it does not know", () => {
    expect(messageFor({ answer: { status: "error", error_code: "new.code" } })).toBe(
      "Something went wrong (new.code). Please try again.",
    );
  });
});
