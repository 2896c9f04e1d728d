/// <reference types="vitest/config" />
// Vite builds the UI from ui/ into ui/dist (loaded by the app in builds) and serves it on port
// 1420 for `tauri dev`. Vitest runs the unit tests beside the code in jsdom.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    host: "127.0.0.1",
    watch: { ignored: ["**/src-tauri/**", "**/crates/**", "**/target/**"] },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // No source maps in what ships (issue 19): the dev server maps sources on its own.
    sourcemap: false,
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testSetup.ts"],
    // The table screen mounts many panels; on a loaded machine a test can pass 5 s without being wrong.
    testTimeout: 15_000,
  },
});
