/**
 * libphonenumber-js, loaded at the first SMS code and kept: some 110 modules with their metadata,
 * which a start of otp does not need (docs/performance.md, "Modules loaded at start").
 */
let loaded: Promise<typeof import("libphonenumber-js")> | undefined;

export const phoneNumbers = () => (loaded ??= import("libphonenumber-js"));
