/**
 * The demo seed's feeds: what a bakery, a café and a repair shop really post
 * (photos, shared links, an album, a long story, opening hours, a job ad),
 * with reactions, comments and shares in the ranges such Pages see.
 * Deterministic: fixed texts, fixed times spread over weeks.
 */
import { mediaPath } from '../media/sign';
import {
  buildFeed,
  daytime,
  graphTime,
  HOUR,
  numberComments,
  photo,
  photoPost,
  video,
  withMedia,
  withModerationQueue,
  type Content,
  type Media,
} from './common';
import type { SeedAttachment, SeedComment, SeedPost } from './types';

const BAKERY_POSTS = 40;

/** Newest demo post: a Thursday afternoon; older ones fall between 7 am and 5 pm. */
const NEWEST = Date.UTC(2026, 10, 20, 16, 45, 0);

/**
 * The moment the demo's times are written for: the newest post is 3 hours old when the emulator starts, on
 * any day (the seed's `timesRelativeTo`).
 */
export const DEMO_TIMES_WRITTEN_FOR = NEWEST + 3 * HOUR;

const link = (url: string, title: string, description: string, scene: string): SeedAttachment => ({
  type: 'share',
  title,
  description,
  url,
  media: { image: { src: mediaPath(scene, 1200, 630), width: 1200, height: 630 } },
  target: { url },
});

const album = (title: string, set: string, scenes: string[]): Pick<Media, 'full_picture' | 'attachments'> => ({
  full_picture: mediaPath(scenes[0]!, 720),
  attachments: [
    {
      type: 'album',
      title,
      url: `https://www.facebook.com/media/set/?set=a.${set}`,
      media: { image: { src: mediaPath(scenes[0]!, 720), width: 720, height: 720 } },
      subattachments: scenes.map((scene) => photo(scene)),
    },
  ],
});

const LONG_STORY = [
  'Ten years ago this week, we opened the shutters on St James’s Square with one oven, two bakers and a sourdough starter called Charles (after Babbage, of course).',
  'We sold out of bread by half past nine on the first day, mostly to the builders next door, and we have been getting up at four ever since. The starter is still going. So is the oven, just about, although it now has two younger siblings and a proper extraction fan.',
  'A lot has changed. We make croissants now (it took us a year to get the lamination right), the cinnamon buns have a cardamom cousin, and Hopper’s round the corner pours coffee good enough that we stopped trying to compete. We have trained twenty-three bakers, and four of them have opened bakeries of their own.',
  'Some things have not changed. Every loaf still takes thirty-six hours from starter to crust. We still bake everything on site, and whatever is left at closing time still goes to the shelter on Jermyn Street.',
  'Thank you to everyone who has queued in the rain, brought their children in to watch the bakers, told a friend, or simply come back. On Saturday, the first coffee and the first slice of birthday cake are on us. Come and say hello.',
].join('\n\n');

const BAKERY_TEXTS: Content[] = [
  {
    message:
      'Fresh out of the oven: our country sourdough, 36 hours from starter to crust. 🍞 The first batch usually goes by 10, so come early or pre-order.',
  },
  {
    message:
      'We made the list! Thank you to everyone who queued in the rain for this one. https://citypaper.example/food/best-bakeries-2026',
  },
  { message: 'Saturday’s bread class: twelve first-time bakers, forty loaves and a lot of flour. Thank you all! 📸' },
  { story: 'Lovelace Analytical Bakery updated their cover photo.' },
  { message: LONG_STORY },
  {
    message:
      'Christmas orders are open! Stollen, mince pies and panettone: order by 18 December at https://lovelace-bakery.example/christmas and collect from the shop or our market stall. Allergen information: https://lovelace-bakery.example/allergens',
  },
  { message: 'Butter, flour, patience: 27 layers in every croissant. 🥐' },
  {
    message:
      'Opening hours over the holidays:\nTue 23 Dec 07:00–14:00\nWed 24 Dec 07:00–12:00\nThu 25 and Fri 26 Dec closed\nBack to normal on Saturday 27 Dec.',
  },
  { story: 'Lovelace Analytical Bakery added 4 new photos to the album Behind the counter.' },
  { message: 'Cinnamon buns are back on Saturdays, with cardamom this time.' },
  {
    story: 'Lovelace Analytical Bakery is feeling thankful.',
    message:
      '12,000 followers! Thank you for every loaf, every queue and every kind word. Free coffee with any pastry this Sunday. ☕',
  },
  { message: 'How we keep our starter alive (and how you can keep yours).' },
  { message: 'Rosemary and sea-salt focaccia today, baked in the big tray.' },
  {
    message:
      'We’re hiring: an early-morning baker (04:00 starts, four days a week) and a weekend shop assistant. Send us a note at jobs@lovelace-bakery.example.',
  },
  { message: 'Baguettes, two ways: classic, and seeded with sesame, poppy and linseed.' },
];

/** Everyday posts after the special ones: one each, so no text repeats in the 40. */
const EVERYDAY: Content[] = [
  { message: 'Rye and caraway loaves are on the shelf until 2 pm.' },
  { message: 'Quiet morning: the sourdough is still warm and there is no queue. Perfect timing.' },
  { message: 'Pumpkin and sage scones today, while the pumpkins last. 🎃' },
  { message: 'Our ovens are off for maintenance on Monday. See you on Tuesday!' },
  { message: 'Almond croissants: yesterday’s croissants, filled, baked again, gone by eleven.' },
  { message: 'Thank you to the 14 of you who brought your own bags this week. 🌱' },
  { story: 'Lovelace Analytical Bakery added a new photo.' },
  { message: 'Wholemeal sandwich loaves are back by popular demand.' },
  { message: 'Sunday special: cardamom knots, coffee, and the papers.' },
  { message: 'Gluten-free brown bread on Wednesdays and Fridays. Baked first, on its own line.' },
  { message: 'The shop will open at 9 this Saturday because of the half marathon road closures.' },
  { message: 'Fig and walnut loaf: a new one for the autumn.' },
  { message: 'Hot cross buns, a little early. We couldn’t wait either.' },
  { message: 'The window seat is free again: the builders have finished next door.' },
  { message: 'Seeded spelt tin loaves this week, sliced on request.' },
  { message: 'A big thank you to the shelter volunteers who collect our bread every evening.' },
  { message: 'Pain au chocolat, now with a darker chocolate from a maker in Bermondsey.' },
  { message: 'Our new oat milk comes from a dairy-free farm in Kent. Same price.' },
  { message: 'Bread class places for next month are open: six left.' },
  { message: 'Lemon and poppy seed loaf cake, by the slice or whole.' },
  { message: 'We will be at the school fair on Saturday with a stall of buns and biscuits.' },
  { message: 'Porridge bread: soaked oats, a long rise and a soft crumb. Try it toasted.' },
  { message: 'Sorry to everyone who missed the sourdough today: we baked double for tomorrow.' },
  { message: 'Ginger biscuits are back for the colder weather.' },
  { message: 'The first bake of the day comes out at 6:45. The shop opens at 7.' },
];

const EVERYDAY_SCENES = ['rye', '', 'cinnamon-buns', '', 'croissants', '', 'sourdough', 'baguettes', '', '', '', 'rye'];

/** Index → pictures, links and counts of the bakery's posts. */
function bakeryMedia(): Record<number, Media> {
  const media: Record<number, Media> = {
    0: { ...photoPost('sourdough'), reactions: { like: 902, love: 271, wow: 31 }, shares: { count: 38 } },
    1: {
      full_picture: mediaPath('bakery-cover', 1200, 630),
      attachments: [
        link(
          'https://citypaper.example/food/best-bakeries-2026',
          'The 25 best bakeries in London, tried and tasted',
          'From laminated pastry to 36-hour sourdough: where to queue this winter.',
          'bakery-cover',
        ),
      ],
      reactions: { like: 340, love: 88 },
      shares: { count: 57 },
    },
    2: {
      ...album('Bread class, November', '104735298799100', [
        'sourdough',
        'baguettes',
        'croissants',
        'cinnamon-buns',
        'focaccia',
        'rye',
      ]),
      reactions: { like: 214, love: 60 },
      shares: { count: 3 },
    },
    3: {
      full_picture: mediaPath('bakery-cover', 720, 270),
      attachments: [
        { type: 'photo', media: { image: { src: mediaPath('bakery-cover', 720, 270), width: 720, height: 270 } } },
      ],
      reactions: { like: 96, love: 12 },
    },
    4: { reactions: { like: 611, love: 402, care: 25 }, shares: { count: 19 } },
    5: {
      full_picture: mediaPath('baguettes', 720, 405),
      attachments: [video('baguettes', 'Shaping baguettes, in slow motion')],
      reactions: { like: 95, love: 14, haha: 3 },
      shares: { count: 22 },
    },
    6: { ...photoPost('croissants'), reactions: { like: 430, love: 120, haha: 2 }, shares: { count: 9 } },
    7: { reactions: { like: 61 }, shares: { count: 4 } },
    8: {
      ...album('Behind the counter', '104735298799200', ['baguettes', 'focaccia', 'cinnamon-buns', 'sourdough']),
      reactions: { like: 150, love: 21 },
    },
    9: { ...photoPost('cinnamon-buns'), reactions: { like: 512, love: 140, wow: 4 }, shares: { count: 12 } },
    10: { reactions: { like: 780, love: 300, care: 14 }, shares: { count: 6 } },
    11: {
      attachments: [
        link(
          'https://lovelace-bakery.example/blog/starter',
          'Keeping a sourdough starter alive: a baker’s notes',
          'Flour, water, time and a little attention every day.',
          'rye',
        ),
      ],
      full_picture: mediaPath('rye', 1200, 630),
      reactions: { like: 188, love: 20 },
      shares: { count: 73 },
    },
    12: { ...photoPost('focaccia'), reactions: { like: 240, love: 45 } },
    13: { reactions: { like: 133 }, shares: { count: 41 } },
    14: { ...photoPost('baguettes'), reactions: { like: 205, love: 17 }, shares: { count: 2 } },
  };
  for (let i = BAKERY_TEXTS.length; i < BAKERY_POSTS; i++) {
    const k = i - BAKERY_TEXTS.length;
    const scene = EVERYDAY_SCENES[k % EVERYDAY_SCENES.length]!;
    // Fewer reactions further back, with a fixed wobble.
    const like = 40 + ((k * 37) % 90) + Math.max(0, 120 - k * 4);
    media[i] = {
      ...(scene === '' ? {} : photoPost(scene)),
      reactions: { like, ...(k % 3 === 0 ? { love: 5 + (k % 11) } : {}) },
      ...(k % 4 === 1 ? { shares: { count: 1 + (k % 6) } } : {}),
    };
  }
  return media;
}

/** Comment counts of the bakery's posts, by index (the rest have none). */
const BAKERY_COMMENTS: Readonly<Record<number, number>> = {
  0: 86,
  1: 12,
  2: 9,
  4: 47,
  5: 14,
  6: 18,
  7: 3,
  9: 33,
  10: 64,
  11: 5,
  12: 7,
  13: 21,
  16: 2,
  18: 4,
  21: 1,
};

/** 52 texts: coprime with the step of 5 below, so a post’s comments run through every one before one repeats. */
const CHATTER = [
  'Best bread in London, no contest.',
  'Is the rye back this week?',
  'Saving one for me please!',
  'We drove 40 minutes for these and it was worth it.',
  'Do you do a gluten-free version?',
  'Congratulations, well deserved! 🎉',
  'The cinnamon buns are dangerous.',
  'What time do you open on Sunday?',
  'Happy to see you busy. Great team.',
  'Can I pre-order for Saturday?',
  'My kids loved watching the bakers.',
  'Still thinking about that croissant.',
  'The crust on Friday’s sourdough was perfect.',
  'Any chance of a seeded rye again soon?',
  'Brought my mum on Tuesday, she wants to come back already.',
  'Do you take card payments at the stall?',
  'That smell when you walk past in the morning…',
  'Ordered the birthday cake here, everyone asked where it was from.',
  'Is there step-free access at the front door?',
  'The queue moved fast today, thank you!',
  'Your baguettes survived a picnic in the rain.',
  'Please never stop making the cardamom knots.',
  'Are the pastries made on site?',
  'Lovely chat with the baker at the counter today.',
  'How long does the sourdough keep?',
  'Could you label the vegan options more clearly?',
  'Tried the focaccia with rosemary. Wow.',
  'We got the last loaf, sorry to the person behind us 😅',
  'Do you sell your starter?',
  'Walked in for bread, left with three pastries.',
  'The new coffee is a big improvement.',
  'Will you be at the Saturday market next week?',
  'Perfect spot for a quiet breakfast.',
  'Can you freeze the brioche?',
  'My neighbour recommended you and she was right.',
  'Missed the workshop, will there be another?',
  'The apple turnovers were still warm. Heaven.',
  'Any plans for a second shop north of the river?',
  'Friendly staff, fair prices, great bread.',
  'Do you bake anything without nuts for school lunches?',
  'First visit today, definitely not the last.',
  'That photo makes me hungry at 11 pm.',
  'How early should I come for the croissants?',
  'The hot cross buns last spring were the best I’ve had.',
  'Thanks for donating the leftovers to the shelter.',
  'Is the café seating open again?',
  'We had your bread at our wedding, still hear compliments.',
  'Does the loyalty card work at the market stall too?',
  'Please bring back the olive loaf!',
  'Came for the rye, stayed for the coffee.',
  'Great to see local bakeries doing so well.',
  'The little one calls you “the bread castle”.',
];

/**
 * `n` visitors' comments on a post, a few minutes apart after it (within 2½ hours), with a few likes each; the first has a
 * reply from the Page itself (`pageName`) and one from a visitor.
 */
function chatter(post: SeedPost, n: number, pageName: string): SeedComment[] {
  const at = Date.parse(post.created_time.replace('+0000', 'Z'));
  const pageId = post.id.split('_')[0] ?? '';
  // At most 7 minutes apart, all within 2½ hours, so even the newest post (3 hours old) has no comment from the future.
  const step = Math.min(7 * 60_000, Math.floor((150 * 60_000) / n));
  return numberComments(
    post.id,
    Array.from({ length: n }, (_, k) => ({
      created_time: graphTime(at + (k + 1) * step),
      message: CHATTER[(k * 5 + n) % CHATTER.length]!,
      like_count: (k * 7 + n) % 5,
      ...(k === 0
        ? {
            replies: [
              {
                created_time: graphTime(at + 12 * 60_000),
                message: 'Thank you! See you soon.',
                from: { id: pageId, name: pageName },
                like_count: 2,
              },
              { created_time: graphTime(at + 20 * 60_000), message: 'Same here!' },
            ],
          }
        : {}),
    })),
    2000,
  );
}

function withChatter(feed: SeedPost[], counts: Readonly<Record<number, number>>, pageName: string): SeedPost[] {
  return feed.map((post, i) =>
    counts[i] === undefined ? post : { ...post, comments: chatter(post, counts[i], pageName) },
  );
}

/** 40 posts over six weeks, newest first. */
export function demoBakeryFeed(pageId: string): SeedPost[] {
  const texts = [...BAKERY_TEXTS];
  texts.push(...EVERYDAY.slice(0, BAKERY_POSTS - texts.length));
  const feed = withChatter(
    withMedia(buildFeed(pageId, NEWEST, texts, 24, daytime), bakeryMedia()),
    BAKERY_COMMENTS,
    'Lovelace Analytical Bakery',
  );
  // The comments a manager would moderate, after the post's three (docs/reference.md#seeds).
  return withModerationQueue(feed, 7, 3000);
}

/** 8 posts over three weeks, newest first. */
export function demoCafeFeed(pageId: string): SeedPost[] {
  const feed = buildFeed(
    pageId,
    NEWEST - 3 * HOUR,
    [
      { message: 'New on the bar: a washed Ethiopian from Guji, bright and floral. Ask for it as a pour-over. ☕' },
      { message: 'Our espresso blend has changed: more chocolate, less acidity. Tell us what you think!' },
      { message: 'The winter menu is here: https://hopper-cafe.example/menu' },
      { story: 'Hopper Compiler Café updated their profile picture.' },
      { message: 'Quiet hours every Tuesday, 9–11 am: no music, low lights, good Wi-Fi. Laptops welcome.' },
      { message: 'Pastries arrive from Lovelace Bakery every morning at 8. The almond croissants go first.' },
      { message: 'Closed on Monday 3 November while we fit the new espresso machine. Back on Tuesday!' },
      { message: 'Loyalty cards are back: the tenth coffee is on us.' },
    ],
    72,
    daytime,
  );
  const media: Record<number, Media> = {
    0: { ...photoPost('coffee'), reactions: { like: 210, love: 40 }, shares: { count: 5 } },
    1: { ...photoPost('espresso'), reactions: { like: 98, wow: 3 } },
    2: {
      full_picture: mediaPath('cafe-cover', 1200, 630),
      attachments: [
        link(
          'https://hopper-cafe.example/menu',
          'Winter menu: Hopper Compiler Café',
          'Spiced oat lattes, hot chocolate made with real chocolate, and toasties until 3 pm.',
          'cafe-cover',
        ),
      ],
      reactions: { like: 77, love: 9 },
      shares: { count: 11 },
    },
    3: { ...photoPost('cafe-logo'), reactions: { like: 54 } },
    4: { reactions: { like: 163, love: 31 }, shares: { count: 14 } },
    5: { ...photoPost('croissants'), reactions: { like: 120, love: 18 } },
    6: { reactions: { like: 25, sad: 4 } },
    7: { reactions: { like: 88 } },
  };
  return withChatter(withMedia(feed, media), { 0: 7, 1: 3, 2: 2, 4: 11, 5: 4, 6: 1 }, 'Hopper Compiler Café');
}

/** The repair shop: 6 posts over three weeks, newest first. */
export function demoRepairFeed(pageId: string): SeedPost[] {
  const feed = buildFeed(
    pageId,
    NEWEST - 26 * HOUR,
    [
      {
        message:
          'This 1954 radio came in silent. New capacitors, a cleaned tuning gang and a fresh cloth grille later, it plays again. 📻',
      },
      { message: 'What’s inside: the old wax capacitors are nearly always the culprits.' },
      { message: 'Back from holiday. Drop-offs Tuesday to Saturday, 10 till 4.' },
      { message: 'Clock season: three longcase clocks and a carriage clock on the bench this week.' },
      {
        message:
          'Can’t bring it in? Tell us about it at https://difference-engine.example/quote and we’ll send a rough quote within two days.',
      },
      { story: 'Difference Engine Repairs updated their information.' },
    ],
    96,
    daytime,
  );
  const media: Record<number, Media> = {
    0: { ...photoPost('radio'), reactions: { like: 356, love: 98, wow: 22 }, shares: { count: 15 } },
    1: { ...photoPost('radio-inside'), reactions: { like: 71, wow: 6 } },
    2: { reactions: { like: 19 } },
    3: { ...photoPost('bench'), reactions: { like: 44, love: 3 } },
    4: { reactions: { like: 12 }, shares: { count: 2 } },
  };
  return withChatter(withMedia(feed, media), { 0: 41, 1: 6, 3: 2 }, 'Difference Engine Repairs');
}

/**
 * The bakery's post waiting to go out (docs/reference.md#publishing): written two hours before the seed's moment,
 * due the next day, so the composer's scheduled list has one to reschedule, publish now or cancel.
 */
export function demoBakeryScheduled(pageId: string): SeedPost[] {
  return [
    {
      id: `${pageId}_905000000001`,
      created_time: graphTime(DEMO_TIMES_WRITTEN_FOR - 2 * HOUR),
      message:
        'Sourdough class this Saturday at 14:00: six places left. Starter, flour and an apron are on us — comment to book yours! 🍞',
      scheduled_publish_time: Math.floor((DEMO_TIMES_WRITTEN_FOR + 20 * HOUR) / 1000),
    },
  ];
}
