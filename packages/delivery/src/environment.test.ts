import { ConfigError, parseConfig } from "@auth/runtime";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkDeliverySettings,
  devSendersWarning,
  mailEnvironment,
  smsEnvironment,
  warnOfDevSenders,
} from "./environment.js";

/** The delivery settings of a process that sends both (identity's). */
const schema = z.object({ ...mailEnvironment, ...smsEnvironment }).superRefine(checkDeliverySettings);

const problemsOf = (env: NodeJS.ProcessEnv) => {
  try {
    parseConfig(schema, env);
    return "";
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
};

/** A logger that keeps what is warned. */
function warnings() {
  const lines: Array<{ fields: object; message: string }> = [];
  return { lines, logger: { warn: (fields: object, message: string) => lines.push({ fields, message }) } };
}

// Issue 31, docs/operations.md "Message senders": no sender is a default.
describe("the deployment's senders", () => {
  it("must be chosen: a start without MAIL_SENDER or SMS_SENDER is refused, naming each", () => {
    expect(problemsOf({})).toBe(
      "MAIL_SENDER: is required: smtp (with SMTP_URL), or dev (messages written to an outbox file and stdout: for development only); " +
        "SMS_SENDER: is required: http (with SMS_HTTP_URL), or dev (messages written to an outbox file and stdout: for development only)",
    );
    expect(problemsOf({ MAIL_SENDER: "dev" })).toMatch(/^SMS_SENDER: is required: http [^;]*$/);
    expect(problemsOf({ SMS_SENDER: "dev" })).toMatch(/^MAIL_SENDER: is required: smtp [^;]*$/);
  });

  it("are dev, smtp or http, each with what it needs", () => {
    expect(problemsOf({ MAIL_SENDER: "dev", SMS_SENDER: "dev" })).toBe("");
    expect(problemsOf({ MAIL_SENDER: "outbox", SMS_SENDER: "dev" })).toBe(
      'MAIL_SENDER: expected smtp or dev, got "outbox"',
    );
    expect(problemsOf({ MAIL_SENDER: "smtp", SMS_SENDER: "http" })).toBe(
      "SMTP_URL: is required with MAIL_SENDER=smtp; SMS_HTTP_URL: is required with SMS_SENDER=http",
    );
    expect(
      problemsOf({
        MAIL_SENDER: "smtp",
        SMTP_URL: "smtp://mail.example.com:587",
        SMS_SENDER: "http",
        SMS_HTTP_URL: "https://sms.example.com/messages",
      }),
    ).toBe("");
  });

  it("warn once at start when a dev sender is chosen, naming the variables and the outboxes", () => {
    const both = warnings();
    warnOfDevSenders(parseConfig(schema, { MAIL_SENDER: "dev", SMS_SENDER: "dev" }), both.logger);
    expect(both.lines).toEqual([
      {
        fields: {
          senders: ["MAIL_SENDER=dev", "SMS_SENDER=dev"],
          outboxes: [".data/mail-outbox.jsonl", ".data/sms-outbox.jsonl"],
        },
        message: devSendersWarning,
      },
    ]);
    expect(devSendersWarning).toMatch(
      /codes and recovery links .* outbox file and stdout.*never in production/,
    );

    const smsOnly = warnings();
    warnOfDevSenders(
      parseConfig(schema, {
        MAIL_SENDER: "smtp",
        SMTP_URL: "smtp://mail.example.com:587",
        SMS_SENDER: "dev",
        SMS_OUTBOX_FILE: "/tmp/sms.jsonl",
      }),
      smsOnly.logger,
    );
    expect(smsOnly.lines).toEqual([
      { fields: { senders: ["SMS_SENDER=dev"], outboxes: ["/tmp/sms.jsonl"] }, message: devSendersWarning },
    ]);
  });

  it("say nothing when none is dev", () => {
    const none = warnings();
    warnOfDevSenders(
      parseConfig(schema, {
        MAIL_SENDER: "smtp",
        SMTP_URL: "smtp://mail.example.com:587",
        SMS_SENDER: "http",
        SMS_HTTP_URL: "https://sms.example.com/messages",
      }),
      none.logger,
    );
    expect(none.lines).toEqual([]);
  });
});
