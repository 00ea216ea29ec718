import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";

/**
 * How the messages are read, here and when formatted: as text, never rich-text tags (a "<" is a
 * "<"), and every plural and select with its `other` case.
 */
export const parserOptions = { ignoreTag: true, requiresOtherClause: true } as const;

/** A message's parts; throws a SyntaxError naming what is wrong when it is no ICU message. */
export const parseMessage = (text: string): MessageFormatElement[] => parse(text, parserOptions);

/** How a message uses a placeholder: `{name}`, `{name, number|plural}`, `{name, date|time}`, `{name, select}`. */
export type Usage = "plain" | "number" | "date" | "select";

/** What a placeholder's value is, as the source message uses it. */
export type ValueType = "text" | "number" | "date";

const usageOf: Partial<Record<TYPE, Usage>> = {
  [TYPE.argument]: "plain",
  [TYPE.number]: "number",
  [TYPE.plural]: "number",
  [TYPE.date]: "date",
  [TYPE.time]: "date",
  [TYPE.select]: "select",
};

/** Every use of a placeholder in the message, in its plural and select cases too. */
export function usagesOf(elements: MessageFormatElement[]): Array<{ name: string; usage: Usage }> {
  return elements.flatMap((element) => {
    const usage = usageOf[element.type];
    const own = usage && "value" in element ? [{ name: element.value, usage }] : [];
    const inner =
      "options" in element ? Object.values(element.options).flatMap((option) => usagesOf(option.value)) : [];
    return [...own, ...inner];
  });
}

const shown = new Set([TYPE.argument, TYPE.number, TYPE.date, TYPE.time]);

/**
 * Whether every way through the message shows the placeholder's value: a plural or select that does
 * not must show it in each of its cases.
 */
export function alwaysShows(elements: MessageFormatElement[], name: string): boolean {
  return elements.some(
    (element) =>
      (shown.has(element.type) && "value" in element && element.value === name) ||
      ("options" in element &&
        Object.values(element.options).every((option) => alwaysShows(option.value, name))),
  );
}

/** The value of each placeholder of a source message: a date or number where it is used as one, text otherwise. */
export function valueTypesOf(elements: MessageFormatElement[]): Map<string, ValueType> {
  const types = new Map<string, ValueType>();
  for (const { name, usage } of usagesOf(elements)) {
    if (usage === "date" || usage === "number") types.set(name, usage);
    else if (!types.has(name)) types.set(name, "text");
  }
  return types;
}

const usagesFitting: Record<ValueType, readonly Usage[]> = {
  text: ["plain", "select"],
  number: ["plain", "number"],
  date: ["date"],
};

/** Whether a use of a placeholder formats its value: a date only as a date, a number never as a select. */
export const fits = (usage: Usage, type: ValueType): boolean => usagesFitting[type].includes(usage);
