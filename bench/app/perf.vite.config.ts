// The measurement pages of ui/perf built for a browser without the dev server (production React,
// as the app ships it): `npx vite build --config bench/app/perf.vite.config.ts`, into
// target/ui-perf (served by bench/app/page.py).
import { defineConfig, mergeConfig } from "vite";
import base from "../../ui/vite.config";
import { fileURLToPath } from "node:url";

const ui = fileURLToPath(new URL("../../ui/", import.meta.url));

export default mergeConfig(
  base,
  defineConfig({
    base: "./",
    build: {
      outDir: fileURLToPath(new URL("../../target/ui-perf", import.meta.url)),
      rollupOptions: {
        input: {
          "collections-run": `${ui}perf/collections-run.html`,
          "static-scroll": `${ui}perf/static-scroll.html`,
        },
      },
    },
  }),
);
