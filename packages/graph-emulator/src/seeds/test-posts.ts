/**
 * The test seed's feeds. Deterministic: texts and created_time values are fixed, so a
 * page of results is the same on every run. The bakery feed deliberately
 * carries hostile and awkward content (HTML-looking text, bidi overrides,
 * a very long message, story-only posts) for the app's rendering tests.
 */
import { buildFeed, type Content } from './common';
import type { SeedPost } from './types';

/** Newest post of every seeded feed. */
const NEWEST = Date.UTC(2026, 9, 1, 12, 0, 0);

const LONG_PARAGRAPH =
  'The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. ';

const SPECIAL: Content[] = [
  { message: 'Fresh sourdough is out of the oven! 🍞🥐☕' },
  { story: 'Lovelace Analytical Bakery updated their cover photo.' },
  {
    message: 'Opening hours this week:\nMon–Fri 07:00–18:00\nSat 08:00–12:00 and 17:00–21:00\nSunday closed',
  },
  { message: '<script>window.__pwned=1</script> Our new menu is live!' },
  { message: '<img src=x onerror="window.__pwned=1"> Photo of the week' },
  { message: `Our story, in full.\n\n${LONG_PARAGRAPH.repeat(40)}The end.` },
  { message: 'خبز طازج كل صباح — לחם טרי בכל בוקר — fresh bread every morning' },
  {
    message: 'Thank you for 1,843 followers! 🎉',
    story: 'Lovelace Analytical Bakery is celebrating a milestone.',
  },
  { message: 'Price list: \u202Eelbisivni\u202C and a zero\u200Bwidth space' },
  { message: 'Read more at https://lovelace-bakery.example/blog?utm=1&x=<b>bold</b>' },
  { message: 'javascript:alert(1)' },
  { message: 'Bakers of the month: 👩‍🍳👨‍🍳 (and 🏳️‍🌈 pride loaves) & "quotes" \'too\'' },
];

const BAKES = ['croissants', 'rye loaves', 'cinnamon buns', 'focaccia', 'baguettes', 'scones', 'bagels'];

function filler(i: number): Content {
  if (i % 9 === 0) return { story: 'Lovelace Analytical Bakery added a new photo.' };
  const bake = BAKES[i % BAKES.length] ?? 'bread';
  if (i % 4 === 0) return { message: `Batch #${i}: ${bake}.\nStill warm — come early.` };
  return { message: `Today's special (#${i}): ${bake}.` };
}

/** 64 posts, newest first. */
export function bakeryFeed(pageId: string): SeedPost[] {
  const contents = [...SPECIAL];
  for (let i = contents.length; i < 64; i++) contents.push(filler(i));
  return buildFeed(pageId, NEWEST, contents, 26);
}

/** 5 posts, newest first. */
export function cafeFeed(pageId: string): SeedPost[] {
  return buildFeed(
    pageId,
    NEWEST,
    [
      { message: 'First bug found: a moth. Coffee is on us today.' },
      { story: 'Hopper Compiler Café changed their profile picture.' },
      { message: 'Nanosecond espresso: 30 cm of wire, one shot.' },
      { message: 'Closed for a compiler upgrade on Tuesday.\nBack Wednesday!' },
      { message: 'Hello, world ☕' },
    ],
    50,
  );
}
