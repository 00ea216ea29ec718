import type { Catalogue } from "./catalogue.js";
import { de } from "./catalogues/de/index.js";
import { en } from "./catalogues/en/index.js";
import { fr } from "./catalogues/fr/index.js";
import type { Language } from "./languages.js";

/** Every language's messages. The page may load one language's module alone (catalogues/<language>/index.js). */
export const catalogues: Record<Language, Catalogue> = { en, de, fr };
