import { defineTestConfig } from "@auth/testing/vitest";

export default defineTestConfig();
