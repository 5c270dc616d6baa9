// Write each card of the npm package @letele/playing-cards (CC0-1.0: Adrian Kennard's
// SVG cards, https://www.me.uk/cards/, as React components) as a plain SVG file.
// Used by models/fetch_npm_decks.py (evaluation art only). Run: node npm_deck_svgs.mjs INDEX_ESM_JS OUT_DIR
import fs from "node:fs";
import path from "node:path";

const [source, out] = process.argv.slice(2);
const KEEP = new Set(["viewBox", "preserveAspectRatio", "patternUnits"]);
const RENAME = { className: "class", xlinkHref: "xlink:href", xmlnsXlink: "xmlns:xlink" };
const attr = (k) => RENAME[k] ?? (KEEP.has(k) ? k : k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()));
const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const React = {
  createElement(tag, props, ...children) {
    const attrs = Object.entries(props ?? {})
      .filter(([k, v]) => v !== undefined && v !== null && k !== "title" && k !== "titleId")
      .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join("");
    const inner = children.flat().filter((c) => c !== null && c !== undefined && c !== false).join("");
    return `<${tag}${attrs}>${inner}</${tag}>`;
  },
};
let code = fs.readFileSync(source, "utf8");
code = code.replace(/^import .*$/gm, "");
const exported = code.match(/export \{([^}]*)\};/)[1];
code = code.replace(/export \{[^}]*\};/, "");
const pairs = exported.split(",").map((s) => s.trim().split(/\s+as\s+/));
const body = `${code}\nreturn {${pairs.map(([a, b]) => `${JSON.stringify(b)}: ${a}`).join(",")}};`;
const components = new Function("React", "_extends", body)(React, Object.assign);
fs.mkdirSync(out, { recursive: true });
for (const [name, component] of Object.entries(components)) {
  const svg = component({});
  const xlink = svg.includes("xmlns:xlink") ? "" : ' xmlns:xlink="http://www.w3.org/1999/xlink"';
  fs.writeFileSync(path.join(out, `${name}.svg`), svg.replace("<svg", `<svg${xlink}`, 1));
}
console.log(Object.keys(components).length, "cards written to", out);
