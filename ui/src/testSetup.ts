// Vitest's setup for every test file. CI runs the suite on a 2-core machine that is often busy:
// a wait that is right can take longer than testing-library's 1 s default there, so every file
// gets the same, longer limits (the assertions are unchanged; only how long a right answer may take).
import { configure } from "@testing-library/react";

configure({ asyncUtilTimeout: 5_000 });
