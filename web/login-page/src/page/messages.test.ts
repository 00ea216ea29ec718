import { en } from "@auth/i18n/catalogues/en/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { messageFor, waitText } from "./messages.js";
import { speak } from "./words.js";

// Every error code has a message in every language: packages/i18n/src/catalogues.test.ts.
describe("the page's error messages", () => {
  beforeAll(() => speak({ catalogue: en }));

  it("tells the error code's message", () => {
    expect(messageFor({ answer: { status: "error", error_code: "auth.user.closed" } })).toBe(
      "This account is closed.",
    );
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
    expect(messageFor(reply)).toBe("Your sign-in is no longer valid. Please start again.");
  });

  it("names a code it does not know", () => {
    expect(messageFor({ answer: { status: "error", error_code: "new.code" } })).toBe(
      "Something went wrong (new.code). Please try again.",
    );
  });
});
