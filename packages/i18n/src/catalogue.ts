import type { messages } from "./catalogues/en/index.js";
import type { Language } from "./languages.js";

type Source = typeof messages;

/** The catalogues' parts: errors, page, sms, notices, mail (docs/decisions.md, "Languages"). */
export type Namespace = keyof Source;

/** A message's key in its namespace, as English has it (of any namespace, for the union of them). */
export type MessageKey<N extends Namespace> = N extends Namespace ? keyof Source[N] & string : never;

/** One namespace's messages in one language: every key English has, no other. */
export type Messages<N extends Namespace> = { readonly [K in MessageKey<N>]: string };

/** Every message of one language, ICU MessageFormat. */
export interface Catalogue {
  readonly language: Language;
  readonly messages: { readonly [N in Namespace]: Messages<N> };
}
