import type { Catalogue } from "../../catalogue.js";
import { errors } from "./errors.js";
import { mail } from "./mail.js";
import { notices } from "./notices.js";
import { page } from "./page.js";
import { sms } from "./sms.js";

export const de: Catalogue = { language: "de", messages: { errors, page, sms, notices, mail } };
