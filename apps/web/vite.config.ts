import { defineConfig } from "vite";

// React's JSX goes through the built-in transform (tsconfig's "jsx": "react-jsx"), so no plugin is needed.
export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The server's Content-Security-Policy allows scripts from itself only; no inline polyfill.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // React Query marks its hooks "use client" for server-component bundlers; a browser-only app has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
});
