/**
 * What the browser suites check of a screen as a person meets it: the focus ring at every Tab stop, controls within
 * the window's reach, nothing scrolling sideways, and axe in the light and the dark theme.
 */
import type { Locator, Page } from 'playwright-core';
import { axeProblems } from './harness';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** What the person sees of the focused element: its outline, and how it stands out from the page. */
export interface FocusRing {
  element: string;
  style: string;
  width: number;
  contrast: number;
}

export async function focusRing(page: Page): Promise<FocusRing | undefined> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return undefined;
    const rgb = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (css: string): number => {
      const [r = 0, g = 0, b = 0] = rgb(css).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    /** The first opaque background behind the element: what its outline is drawn on. */
    const behind = (node: Element | null): string => {
      for (let n = node?.parentElement; n; n = n.parentElement) {
        const bg = getComputedStyle(n).backgroundColor;
        if (!/rgba\(.*,\s*0\)$/.test(bg) && bg !== 'transparent') return bg;
      }
      return getComputedStyle(document.documentElement).backgroundColor;
    };
    const style = getComputedStyle(el);
    const [a, b] = [luminance(style.outlineColor), luminance(behind(el))];
    const label = (el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').trim().slice(0, 40);
    return {
      element: `${el.tagName.toLowerCase()} ${label || el.getAttribute('name') || el.id}`,
      style: style.outlineStyle,
      width: parseFloat(style.outlineWidth),
      contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has the focus, checking the ring at every stop on the
 * way: a visible outline at least 2 px wide with 3:1 against what it is drawn on (WCAG 2.4.7, 1.4.11).
 */
export async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  const stops: string[] = [];
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press(key);
    const ring = await focusRing(page);
    if (!ring) continue;
    stops.push(ring.element);
    expect({ ...ring, visible: ring.style !== 'none' && ring.width >= 2 && ring.contrast >= 3 }).toMatchObject({
      element: ring.element,
      visible: true,
    });
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`focus never reached the target; it stopped at: ${stops.join(' | ')}`);
}

/** How far the page reaches past the window's right edge (0: nothing scrolls sideways). */
export const sideways = (p: Page): Promise<number> =>
  p.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** What scrolls sideways and what axe finds, in the light and the dark theme. */
export async function inBothThemes(p: Page): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const theme of THEMES) {
    await p.emulateMedia({ colorScheme: theme });
    found[theme] = { sideways: await sideways(p), axe: await axeProblems(p) };
  }
  await p.emulateMedia({ colorScheme: 'light' });
  return found;
}
export const CLEAN = { light: { sideways: 0, axe: [] }, dark: { sideways: 0, axe: [] } };

/** Whether `control`, once scrolled to, lies inside the window and takes the focus. */
export async function inReach(control: Locator): Promise<boolean> {
  await control.scrollIntoViewIfNeeded();
  await control.focus();
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && document.activeElement === el;
  });
}

/** For each of `names`' buttons in `within`: whether it is in reach (inReach). */
export async function reachable(within: Locator, names: string[]): Promise<Record<string, boolean>> {
  const found: Record<string, boolean> = {};
  for (const name of names) found[name] = await inReach(within.getByRole('button', { name, exact: true }));
  return found;
}
export const all = (names: string[]): Record<string, boolean> => Object.fromEntries(names.map((n) => [n, true]));
