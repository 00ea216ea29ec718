import type { Catalogue } from "../../catalogue.js";
import { errors } from "./errors.js";
import { mail } from "./mail.js";
import { notices } from "./notices.js";
import { page } from "./page.js";
import { sms } from "./sms.js";

/** The source of every message: its keys and placeholders are what every other language must have. */
export const messages = { errors, page, sms, notices, mail } as const;

export const en: Catalogue = { language: "en", messages };
