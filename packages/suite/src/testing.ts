// `@auth/suite/testing`: a test file's own suite, on the machine's stores when the environment names
// them (test-e2e's files, authctl's).
export { type OwnSuiteOptions, patientWithStores, startOwnSuite } from "./own-suite.js";
export { suiteOptionsFromEnvironment } from "./stores.js";
