import { messageTranslator } from "@auth/delivery";
import { companyPolicy, smsSettings } from "@auth/grpc-kit";
import { companyTextProblems, type MessageKey, type Namespace } from "@auth/i18n";
import { type CompanyPolicy, NotificationEvent } from "@auth/proto/identity";
import { describe, expect, it } from "vitest";
import { companyTextsOf } from "./company-texts.js";

const time = new Date("2026-03-14T09:26:00Z");
const values = { code: "123456", minutes: 30, company: "Acme", link: "https://x/?token=1", time };
const mailSettings = { smtpUrl: "", from: "" };

/** The company's texts of the policy, each with what the services show of it in its language. */
function shown(policy: CompanyPolicy) {
  return companyTextsOf(policy).map((text) => ({
    ...text,
    shows: messageTranslator({ defaultLanguage: text.language, texts: [text] }).format(
      text.namespace as Namespace,
      text.key as MessageKey<Namespace>,
      values,
    ),
  }));
}

describe("an older policy's single templates are texts of the company's default language (docs/decisions.md, \"Languages\")", () => {
  it.each<[string, Partial<CompanyPolicy>, string, string]>([
    [
      "sms.login_template",
      { sms: smsSettings({ loginTemplate: "ACME: {code} ({minutes} min). Don't share it." }) },
      "sms login",
      "ACME: 123456 (30 min). Don't share it.",
    ],
    [
      "sms.recovery_template",
      { sms: smsSettings({ recoveryTemplate: "ACME recovery '{code}'" }) },
      "sms recovery",
      "ACME recovery '123456'",
    ],
    [
      "mail.subject_template",
      { mail: { ...mailSettings, subjectTemplate: "{company}: reset" } },
      "mail recovery.subject",
      "Acme: reset",
    ],
    [
      "mail.body_template",
      { mail: { ...mailSettings, bodyTemplate: "Go to {link} ({minutes} min, {unknown})" } },
      "mail recovery.body",
      "Go to https://x/?token=1 (30 min, {unknown})",
    ],
    [
      "a notification template's subject",
      { notificationTemplates: [{ event: NotificationEvent.LOCKED_OUT, subject: "{company}: locked" }] },
      "notices locked_out.subject",
      "Acme: locked",
    ],
    [
      "a notification template's body, its time a date with the month's name",
      {
        notificationTemplates: [
          { event: NotificationEvent.PASSKEY_ADDED, body: "A passkey at {time}.\n\nCall the help desk." },
        ],
      },
      "notices passkey_added.body",
      "A passkey at Mar 14, 2026, 9:26 AM UTC.\n\nCall the help desk.",
    ],
    [
      "a notification template's SMS, its time a date in digits",
      {
        notificationTemplates: [
          { event: NotificationEvent.LOCKED_OUT, smsText: "{company}: locked at {time}." },
        ],
      },
      "notices locked_out.sms",
      "Acme: locked at 03/14/2026, 9:26 AM UTC.",
    ],
  ])(
    "%s passes the rules of a company's text and shows what the template showed",
    (_, fields, message, text) => {
      const texts = shown(companyPolicy({ ...fields, defaultLanguage: "en" }));
      expect(texts.map(({ namespace, key }) => `${namespace} ${key}`)).toEqual([message]);
      expect(companyTextProblems(texts)).toEqual([]);
      expect(texts[0]?.shows).toBe(text);
    },
  );

  it("in the company's default language, its dates in that language's form", () => {
    const texts = shown(
      companyPolicy({
        defaultLanguage: "de",
        sms: smsSettings({ loginTemplate: "Code {code}" }),
        notificationTemplates: [
          {
            event: NotificationEvent.LOCKED_OUT,
            body: "Gesperrt am {time}.",
            smsText: "Gesperrt am {time}.",
          },
        ],
      }),
    );
    expect(texts.map(({ language, shows }) => [language, shows])).toEqual([
      ["de", "Code 123456"],
      ["de", "Gesperrt am 14. März 2026, 09:26 UTC."],
      ["de", "Gesperrt am 14.03.2026, 09:26 UTC."],
    ]);
  });

  it("in English when the policy names no default language", () => {
    const [text] = companyTextsOf(companyPolicy({ sms: smsSettings({ loginTemplate: "Code {code}" }) }));
    expect(text?.language).toBe("en");
  });

  it("give way to the company's own text of that message in that language, and to no other", () => {
    const own = (language: string) => ({
      language,
      namespace: "sms",
      key: "login",
      text: `${language}: {code}`,
    });
    const policy = (defaultLanguage: string) =>
      companyPolicy({
        defaultLanguage,
        texts: [own("de")],
        sms: smsSettings({ loginTemplate: "Code {code}" }),
      });
    expect(companyTextsOf(policy("de"))).toEqual([own("de")]);
    expect(companyTextsOf(policy("fr"))).toEqual([
      own("de"),
      { language: "fr", namespace: "sms", key: "login", text: "Code {code}" },
    ]);
  });

  it("show a subject's placeholder that the catalogue's subject lacks, as the old templates allowed it", () => {
    const texts = shown(
      companyPolicy({
        mail: { ...mailSettings, subjectTemplate: "{company}: {minutes} minutes to reset" },
        notificationTemplates: [{ event: NotificationEvent.LOCKED_OUT, subject: "Locked at {time}" }],
      }),
    );
    expect(texts.map(({ shows }) => shows)).toEqual([
      "Acme: 30 minutes to reset",
      "Locked at Mar 14, 2026, 9:26 AM UTC",
    ]);
  });

  it("show braces and apostrophes as the template did", () => {
    const [text] = shown(
      companyPolicy({ sms: smsSettings({ loginTemplate: "It's '{code}' {{code}} {} ''#'{x}" }) }),
    );
    expect(text?.shows).toBe("It's '123456' {123456} {} ''#'{x}");
  });
});
