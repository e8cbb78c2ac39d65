// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_flame_svg_dom.js - runs a flame graph's script (svg_script.c) in
 * node against a small stand-in for the browser's DOM, built from the
 * parsed SVG that test_flame_svg_run.py sends on stdin, then plays the
 * steps (a click, a hover, a search, Escape) and prints the frames' state
 * after each, for test_flame_svg.c to compare line by line.
 *
 * The stand-in has only what the script may use: if the script reaches for
 * anything else (innerHTML, eval of a name, a fetch), it throws here and
 * the test fails.
 */
"use strict";

const vm = require("vm");
const SVG_NS = "http://www.w3.org/2000/svg";
const HIT = "rgb(230,0,230)";

class El {
	constructor(tag, attrs) {
		this.localName = tag;
		this.attrs = new Map(Object.entries(attrs || {}));
		this.kids = [];
		this.parentNode = null;
		this.text = "";
		this.on = new Map();
		Object.preventExtensions(this);
		/* anything the stand-in lacks is a mistake, not undefined */
		return new Proxy(this, {
			get(t, k) {
				if (typeof k === "string" && !(k in t))
					throw new Error("the script read ." + k + " of <" + t.localName + ">");
				return t[k];
			},
		});
	}
	getAttribute(n) { return this.attrs.has(n) ? this.attrs.get(n) : null; }
	hasAttribute(n) { return this.attrs.has(n); }
	setAttribute(n, v) { this.attrs.set(n, String(v)); }
	removeAttribute(n) { this.attrs.delete(n); }
	appendChild(k) {
		k.parentNode = this;
		this.kids.push(k);
		return k;
	}
	get textContent() { return this.text + this.kids.map((k) => k.textContent).join(""); }
	set textContent(v) {
		this.text = String(v);
		this.kids = [];
	}
	getElementsByTagName(tag) {
		const out = [];
		const walk = (n) => n.kids.forEach((k) => {
			if (k.localName === tag)
				out.push(k);
			walk(k);
		});
		walk(this);
		return out;
	}
	addEventListener(type, fn) {
		if (!this.on.has(type))
			this.on.set(type, []);
		this.on.get(type).push(fn);
	}
}

function build(j) {
	const el = new El(j.tag, j.attrs);

	el.text = j.text;
	j.kids.forEach((k) => el.appendChild(build(k)));
	return el;
}

const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const root = build(input.root);
function every(n, out) {
	out.push(n);
	n.kids.forEach((k) => every(k, out));
	return out;
}
class Doc extends El {
	getElementById(id) { return every(root, []).find((n) => n.getAttribute("id") === id) || null; }
	createElementNS(ns, tag) {
		if (ns !== SVG_NS)
			throw new Error("createElementNS outside SVG: " + ns);
		return new El(tag);
	}
}
const doc = new Doc("#document");
const answers = [];
const prompts = [];

function dispatch(target, type, key) {
	const ev = { type: type, target: target, key: key };

	for (let n = target; n; n = n.parentNode)
		(n.on.get(type) || []).forEach((fn) => fn.call(n, ev));
	(doc.on.get(type) || []).forEach((fn) => fn.call(doc, ev));
}

vm.runInNewContext(input.script, {
	document: doc,
	prompt: (msg, def) => {
		prompts.push(def);
		return answers.length ? answers.shift() : null;
	},
}, { filename: "svg_script" });

const box = doc.getElementById("hk-frames");
const frames = box.getElementsByTagName("g").filter((g) => g.hasAttribute("data-w"));

function nameOf(g) {
	const t = g.getElementsByTagName("title")[0].textContent;

	return t.slice(0, t.lastIndexOf(" ("));
}

/* "NAME@DEPTH", or the first frame called spec */
function frameNamed(spec) {
	const g = frames.find((f) => nameOf(f) + "@" + f.getAttribute("data-d") === spec) ||
		frames.find((f) => nameOf(f) === spec);

	if (!g)
		throw new Error("no frame " + spec);
	return g;
}

function shown(el) { return el.getAttribute("display") === "none" ? "hidden" : "shown"; }

function dump(step, note) {
	const lines = ["> " + step].concat(note);

	lines.push("unzoom " + shown(doc.getElementById("hk-unzoom")));
	lines.push("search " + shown(doc.getElementById("hk-search")));
	lines.push("details [" + doc.getElementById("hk-details").textContent + "]");
	lines.push("matched [" + doc.getElementById("hk-matched").textContent + "]");
	frames.forEach((g) => {
		const r = g.getElementsByTagName("rect")[0];
		const t = g.getElementsByTagName("text")[0];
		let s = nameOf(g) + "@" + g.getAttribute("data-d") + ": ";

		if (g.getAttribute("display") === "none") {
			lines.push(s + "hidden");
			return;
		}
		s += "x=" + r.getAttribute("x") + " w=" + r.getAttribute("width");
		s += " label=[" + (t ? t.textContent : "") + "]";
		if (t && t.getAttribute("x") !== (Number(r.getAttribute("x")) + 3).toFixed(2))
			s += " label-x=" + t.getAttribute("x");
		if (g.getAttribute("opacity"))
			s += " opacity=" + g.getAttribute("opacity");
		if (r.getAttribute("fill") === HIT)
			s += " hit";
		lines.push(s);
	});
	process.stdout.write(lines.join("\n") + "\n");
}

dump("start", []);
input.steps.forEach((step) => {
	const colon = step.indexOf(":");
	const verb = colon < 0 ? step : step.slice(0, colon);
	const arg = colon < 0 ? "" : step.slice(colon + 1);
	const note = [];

	if (verb === "click")
		dispatch(frameNamed(arg).getElementsByTagName("rect")[0], "click");
	else if (verb === "hover")
		dispatch(frameNamed(arg).getElementsByTagName("rect")[0], "mouseover");
	else if (verb === "leave")
		dispatch(doc.getElementById("hk-frames"), "mouseout");
	else if (verb === "unzoom")
		dispatch(doc.getElementById("hk-unzoom").getElementsByTagName("text")[0], "click");
	else if (verb === "search" || verb === "cancel") {
		answers.push(verb === "search" ? arg : null);
		dispatch(doc.getElementById("hk-search").getElementsByTagName("text")[0], "click");
		note.push("prompted [" + prompts[prompts.length - 1] + "]");
	} else if (verb === "escape")
		dispatch(doc.getElementById("hk-frames"), "keydown", "Escape");
	else
		throw new Error("unknown step " + step);
	dump(step, note);
});

