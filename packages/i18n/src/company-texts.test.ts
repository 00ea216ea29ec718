import { describe, expect, it } from "vitest";
import { type CompanyText, companyTextProblems } from "./company-texts.js";

const text = (overrides: Partial<CompanyText>): CompanyText => ({
  language: "de",
  namespace: "sms",
  key: "login",
  text: "Ihr Code für Acme: {code}. Gültig {minutes, plural, one {eine Minute} other {# Minuten}}.",
  ...overrides,
});

/** The reasons and fields of the problems of one text. */
const problemsOf = (overrides: Partial<CompanyText>) =>
  companyTextProblems([text(overrides)]).map(({ index, field, reason }) => ({ index, field, reason }));

describe("a company's own text of a message", () => {
  it("is taken when it names a message, parses and uses the message's placeholders", () => {
    expect(
      companyTextProblems([
        text({}),
        text({ language: "en", namespace: "mail", key: "recovery.body", text: "Open {link} (Acme)." }),
        text({
          language: "fr",
          namespace: "notices",
          key: "locked_out.subject",
          text: "Compte {company} bloqué",
        }),
        text({ language: "en", namespace: "errors", key: "auth.otp.invalid", text: "Wrong code." }),
        text({ language: "en", namespace: "page", key: "events.factorEnrolled", text: "{factor} added" }),
      ]),
    ).toEqual([]);
  });

  it("must be in a language the suite speaks", () => {
    expect(problemsOf({ language: "es" })).toEqual([
      { index: 0, field: "language", reason: "unknown_language" },
    ]);
    expect(problemsOf({ language: "de-CH" })).toEqual([
      { index: 0, field: "language", reason: "unknown_language" },
    ]);
  });

  it("must name a namespace and a message of it", () => {
    expect(problemsOf({ namespace: "emails" })).toEqual([
      { index: 0, field: "namespace", reason: "unknown_namespace" },
    ]);
    expect(problemsOf({ key: "signup" })).toEqual([{ index: 0, field: "key", reason: "unknown_key" }]);
    expect(problemsOf({ namespace: "errors", key: "toString" })).toEqual([
      { index: 0, field: "key", reason: "unknown_key" },
    ]);
  });

  it("is one per message and language", () => {
    const problems = companyTextProblems([text({}), text({ language: "fr" }), text({ text: "{code}" })]);
    expect(problems).toEqual([
      { index: 2, field: "key", reason: "duplicate", message: "has a text in this language already" },
    ]);
  });

  it("must not be empty", () => {
    expect(problemsOf({ text: "  " })).toEqual([{ index: 0, field: "text", reason: "empty" }]);
  });

  it("must fit its kind of message: an SMS 320 characters, a subject 200, a body 5000, a text of the page 1000", () => {
    const long = (length: number) => `{company}${"x".repeat(length - "{company}".length)}`;
    expect(problemsOf({ text: `{code}${"x".repeat(315)}` })).toEqual([
      { index: 0, field: "text", reason: "too_long" },
    ]);
    expect(problemsOf({ text: `{code}${"x".repeat(314)}` })).toEqual([]);
    const notice = (key: string, length: number) =>
      problemsOf({ namespace: "notices", key, text: long(length) });
    expect(notice("locked_out.sms", 321)).toEqual([{ index: 0, field: "text", reason: "too_long" }]);
    expect(notice("locked_out.subject", 200)).toEqual([]);
    expect(notice("locked_out.subject", 201)).toEqual([{ index: 0, field: "text", reason: "too_long" }]);
    expect(notice("locked_out.body", 5_000)).toEqual([]);
    expect(notice("locked_out.body", 5_001)).toEqual([{ index: 0, field: "text", reason: "too_long" }]);
    expect(problemsOf({ namespace: "page", key: "identify.title", text: "x".repeat(1_001) })).toEqual([
      { index: 0, field: "text", reason: "too_long" },
    ]);
    expect(companyTextProblems([text({ text: "x".repeat(400) })])[0]?.message).toBe(
      "must be at most 320 characters",
    );
  });

  it("must parse as an ICU message", () => {
    const [problem] = companyTextProblems([text({ text: "Your code: {code" })]);
    expect(problem).toMatchObject({ field: "text", reason: "syntax" });
    expect(problem?.message).toMatch(/^is not an ICU message \(.+\)$/);
    expect(problemsOf({ text: "{code} {minutes, plural, one {#}}" })).toEqual([
      { index: 0, field: "text", reason: "syntax" },
    ]);
  });

  it("may use only the placeholders of the English message", () => {
    expect(companyTextProblems([text({ text: "{code} for {user}" })])).toEqual([
      {
        index: 0,
        field: "text",
        reason: "unknown_placeholder",
        placeholder: "user",
        message: "uses {user}, which this message does not have",
      },
    ]);
  });

  it("may use {device} in the new device's notice only", () => {
    const notice = (key: string, wording: string) =>
      problemsOf({ language: "en", namespace: "notices", key, text: wording });
    expect(notice("new_device.sms", "{company}: signed in on {device} at {time, time, short}")).toEqual([]);
    expect(notice("locked_out.sms", "{company}: locked on {device}")).toEqual([
      { index: 0, field: "text", reason: "unknown_placeholder" },
    ]);
  });

  it("may use in a part of a notice or an e-mail the placeholders of its other parts, which are worded from the same values", () => {
    const part = (namespace: string, key: string, value: string) =>
      companyTextProblems([text({ namespace, key, text: value })]);
    expect(part("notices", "password_changed.subject", "Password changed {time, date, medium}")).toEqual([]);
    expect(part("mail", "recovery.subject", "{company}: a link for {minutes} minutes")).toEqual([]);
    expect(part("mail", "layout.linkHint", "Open {link}")).toMatchObject([
      { reason: "unknown_placeholder", placeholder: "link" },
    ]);
    expect(part("notices", "password_changed.subject", "{code}")).toMatchObject([
      { reason: "unknown_placeholder", placeholder: "code" },
    ]);
  });

  it("must use a placeholder as what it is: a date as a date, a number as a number or text, a text never as a number", () => {
    const notice = (body: string) =>
      companyTextProblems([text({ namespace: "notices", key: "locked_out.body", text: body })]);
    expect(notice("Locked at {time}.")).toEqual([
      {
        index: 0,
        field: "text",
        reason: "placeholder_misused",
        placeholder: "time",
        type: "date",
        message: "uses {time} as what it is not: it is a date",
      },
    ]);
    expect(notice("Locked at {time, time, short} ({time, date, ::yyyyMMdd}).")).toEqual([]);
    expect(notice("{company, number} locked you out.")).toMatchObject([
      { reason: "placeholder_misused", placeholder: "company", type: "text" },
    ]);
    expect(problemsOf({ text: "{code} valid {minutes} min" })).toEqual([]);
    expect(problemsOf({ text: "{code} valid {minutes, select, other {a while}}" })).toEqual([
      { index: 0, field: "text", reason: "placeholder_misused" },
    ]);
  });

  it("must show the code in an SMS and the link in the recovery e-mail, in every case", () => {
    expect(companyTextProblems([text({ text: "Your Acme code expires soon." })])).toEqual([
      {
        index: 0,
        field: "text",
        reason: "missing_placeholder",
        placeholder: "code",
        message: "must show {code} in every case",
      },
    ]);
    expect(problemsOf({ text: "{minutes, plural, one {Code {code}} other {No code}}" })).toEqual([
      { index: 0, field: "text", reason: "missing_placeholder" },
    ]);
    expect(problemsOf({ text: "{minutes, plural, one {Code {code}} other {Code {code}, # min}}" })).toEqual(
      [],
    );
    expect(
      problemsOf({
        language: "en",
        namespace: "mail",
        key: "recovery.body",
        text: "Recover access to {company}.",
      }),
    ).toEqual([{ index: 0, field: "text", reason: "missing_placeholder" }]);
    expect(problemsOf({ language: "en", namespace: "mail", key: "recovery.subject", text: "Acme" })).toEqual(
      [],
    );
  });

  it("tells the problems of each text of a list by its index", () => {
    const problems = companyTextProblems([
      text({}),
      text({ language: "xx" }),
      text({ language: "en", text: "no code" }),
    ]);
    expect(problems.map(({ index, reason }) => [index, reason])).toEqual([
      [1, "unknown_language"],
      [2, "missing_placeholder"],
    ]);
  });
});
