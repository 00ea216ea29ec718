import { ApiDocument } from "@auth/testing/api";
import { afterAll, expect, inject } from "vitest";
import { answers } from "./answers.js";

// A setup file of every test file: each answer the file got through call() must be one the
// gateway's OpenAPI document describes (issue 12), so that the document cannot drift from the API.
afterAll(async () => {
  if (answers.length === 0) return;
  const document = await ApiDocument.served(inject("gatewayUrl"));
  expect(answers.flatMap((answer) => document.problemsOf(answer))).toEqual([]);
});
