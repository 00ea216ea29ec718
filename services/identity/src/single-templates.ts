import { type MessageKey, type Namespace, sourceLanguage } from "@auth/i18n";
import type { CompanyPolicy, CompanyText } from "@auth/proto/identity";
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { printAST } from "@formatjs/icu-messageformat-parser/printer.js";
import { eventNames, type KnownEvent } from "./notifications/templates.js";

/** A single template's placeholders, each as the ICU argument that shows its value as the template did. */
type Arguments = Readonly<Record<string, string>>;

const smsArguments: Arguments = { code: "{code}", minutes: "{minutes}" };
const mailArguments: Arguments = { company: "{company}", link: "{link}", minutes: "{minutes}" };
// A notice's {time} was filled in as "2026-03-14 09:26 UTC"; the catalogue's is a date, shown in the
// language's form (docs/decisions.md, "Languages"): with the month's name in an e-mail, in digits in
// an SMS, where a month's name ("août") could leave the GSM-7 alphabet.
// {device} only in NEW_DEVICE's templates, which notificationTemplatesInput checks.
const noticeMailArguments: Arguments = {
  company: "{company}",
  time: "{time, date, ::yyyyMMMdjmmz}",
  device: "{device}",
};
const noticeSmsArguments: Arguments = { ...noticeMailArguments, time: "{time, date, ::yyyyMMddjmmz}" };

/** What the old templates' fillers took for a placeholder; other braces were shown as they are. */
const placeholder = /\{([^{}]*)\}/g;

/**
 * A single template as an ICU message that shows what the template showed: its placeholders as the
 * message's arguments, every other character as itself (FormatJS's printer escapes apostrophes and
 * braces).
 */
export function templateAsMessage(template: string, args: Arguments): string {
  const elements: MessageFormatElement[] = [];
  let literalStart = 0;
  for (const match of template.matchAll(placeholder)) {
    const name = match[1] ?? "";
    if (!Object.hasOwn(args, name)) continue;
    elements.push(
      { type: TYPE.literal, value: template.slice(literalStart, match.index) },
      ...parse(args[name] as string),
    );
    literalStart = match.index + match[0].length;
  }
  elements.push({ type: TYPE.literal, value: template.slice(literalStart) });
  return printAST(elements);
}

/**
 * The single templates of a policy (sms.login_template, sms.recovery_template,
 * mail.subject_template, mail.body_template, notification_templates) as texts of the company's
 * default language (docs/decisions.md, "Languages").
 */
export function singleTemplateTexts(policy: CompanyPolicy): CompanyText[] {
  const language = policy.defaultLanguage || sourceLanguage;
  const text = <N extends Namespace>(
    namespace: N,
    key: MessageKey<N>,
    template: string | undefined,
    args: Arguments,
  ): CompanyText[] =>
    template ? [{ language, namespace, key, text: templateAsMessage(template, args) }] : [];
  return [
    ...text("sms", "login", policy.sms?.loginTemplate, smsArguments),
    ...text("sms", "recovery", policy.sms?.recoveryTemplate, smsArguments),
    ...text("mail", "recovery.subject", policy.mail?.subjectTemplate, mailArguments),
    ...text("mail", "recovery.body", policy.mail?.bodyTemplate, mailArguments),
    ...(policy.notificationTemplates ?? []).flatMap(({ event, subject, body, smsText }) => {
      if (!Object.hasOwn(eventNames, event)) return [];
      const name = eventNames[event as KnownEvent];
      return [
        ...text("notices", `${name}.subject`, subject, noticeMailArguments),
        ...text("notices", `${name}.body`, body, noticeMailArguments),
        ...text("notices", `${name}.sms`, smsText, noticeSmsArguments),
      ];
    }),
  ];
}
