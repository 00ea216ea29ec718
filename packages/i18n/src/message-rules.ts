import type { MessageKey, Namespace } from "./catalogue.js";
import { messages as source } from "./catalogues/en/index.js";
import { alwaysShows, fits, parseMessage, usagesOf, type ValueType, valueTypesOf } from "./placeholders.js";

/** What is wrong with a text as one message, as data (docs/decisions.md, "Languages"). */
export type MessageProblem =
  | { reason: "empty" }
  | { reason: "too_long"; limit: number }
  | { reason: "syntax"; detail: string }
  | { reason: "unknown_placeholder"; placeholder: string }
  | { reason: "placeholder_misused"; placeholder: string; type: ValueType }
  | { reason: "missing_placeholder"; placeholder: string };

/** The longest text of each kind of message: an SMS, a subject and a body as the policy's templates allowed them. */
export const lengthLimits = { sms: 320, subject: 200, body: 5_000, text: 1_000 } as const;

const messageParts = ["subject", "body", "sms"] as const;
type MessagePart = (typeof messageParts)[number];

/** Notices and mail are keyed `<message>.<part>`; the part says what the text is. */
function partOf(namespace: Namespace, key: string): MessagePart | undefined {
  if (namespace !== "notices" && namespace !== "mail") return undefined;
  const part = key.slice(key.lastIndexOf(".") + 1);
  return (messageParts as readonly string[]).includes(part) ? (part as MessagePart) : undefined;
}

function lengthLimit(namespace: Namespace, key: string): number {
  if (namespace === "sms") return lengthLimits.sms;
  return lengthLimits[partOf(namespace, key) ?? "text"];
}

/**
 * The placeholders a text of the message may use, with their kinds: the English message's, and for
 * a part of a notice or an e-mail those of its other parts too, since the services word the parts
 * from one set of values (as the single templates of older policies could use them).
 */
function valueTypesOfMessage<N extends Namespace>(namespace: N, key: MessageKey<N>): Map<string, ValueType> {
  const part = partOf(namespace, key);
  const message = part === undefined ? undefined : key.slice(0, key.length - part.length);
  const keys =
    message === undefined
      ? [key]
      : messageParts
          .map((other) => `${message}${other}`)
          .filter((other): other is MessageKey<N> => isMessageKey(namespace, other));
  return new Map(keys.flatMap((other) => [...valueTypesOf(parseMessage(sourceMessage(namespace, other)))]));
}

/** Placeholders without which a message fails its purpose: the code of an SMS, the link of the recovery e-mail. */
const requiredPlaceholders: { [N in Namespace]?: Partial<Record<MessageKey<N>, readonly string[]>> } = {
  sms: { login: ["code"], recovery: ["code"], phoneChange: ["code"] },
  mail: { "recovery.body": ["link"], "emailChange.body": ["link"] },
};

export const isNamespace = (value: string): value is Namespace => Object.hasOwn(source, value);

export const isMessageKey = <N extends Namespace>(namespace: N, key: string): key is MessageKey<N> =>
  Object.hasOwn(source[namespace], key);

/** The English message, whose placeholders every other text of the key may use. */
export const sourceMessage = <N extends Namespace>(namespace: N, key: MessageKey<N>): string =>
  (source[namespace] as Record<MessageKey<N>, string>)[key];

/**
 * What keeps `text` from standing for the message `key` of `namespace`: it must not be empty nor too
 * long, must parse as ICU MessageFormat, may use only the English message's placeholders (a part
 * of a notice or an e-mail: those of its parts, valueTypesOfMessage), each as
 * a value of its kind (a date as a date), and must show the placeholders the message needs.
 */
export function messageProblems<N extends Namespace>(
  namespace: N,
  key: MessageKey<N>,
  text: string,
): MessageProblem[] {
  if (text.trim() === "") return [{ reason: "empty" }];
  const limit = lengthLimit(namespace, key);
  if (text.length > limit) return [{ reason: "too_long", limit }];
  let elements: ReturnType<typeof parseMessage>;
  try {
    elements = parseMessage(text);
  } catch (error) {
    return [{ reason: "syntax", detail: (error as Error).message }];
  }
  const types = valueTypesOfMessage(namespace, key);
  const problems: MessageProblem[] = [];
  for (const { name, usage } of usagesOf(elements)) {
    const type = types.get(name);
    if (type === undefined) problems.push({ reason: "unknown_placeholder", placeholder: name });
    else if (!fits(usage, type)) problems.push({ reason: "placeholder_misused", placeholder: name, type });
  }
  for (const name of requiredPlaceholders[namespace]?.[key] ?? [])
    if (!alwaysShows(elements, name)) problems.push({ reason: "missing_placeholder", placeholder: name });
  return uniqueProblems(problems);
}

/** A placeholder used wrongly twice is one problem. */
const uniqueProblems = (problems: MessageProblem[]): MessageProblem[] => [
  ...new Map(problems.map((problem) => [JSON.stringify(problem), problem])).values(),
];
