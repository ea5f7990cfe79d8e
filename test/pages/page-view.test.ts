import { SEED_IDS } from '@pagelight/graph-emulator';
import { signInAndConnect, connectedAgent } from '../support/flow';
import { graphCalls } from '../support/emulator';
import { agentFor, startStack, useStack } from '../support/stack';
import { find, findAll, images, links, linkTo, textOf } from '../support/dom';
import { hrefOf, visibleText } from '../support/words';

/** Where a feed page stands among the posts ("Posts 26–50"). */
const position = (html: string) => textOf(find(html, { tag: 'p', class: 'position' })!);

const BAKERY = SEED_IDS.pages.bakery;

/** The page view's HTML (docs/architecture.md#views, docs/architecture.md#images). */
describe('GET /pages/:pageId, the page and its posts', () => {
  const stack = useStack();

  it('when the page is served, then the CSP allows images from itself and FB_IMAGE_ORIGINS only', async () => {
    const res = await agentFor(stack).get('/');
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain(`img-src 'self' ${stack.emulator.url};`);
    expect(csp).not.toContain('data:');
  });

  it('when the page is viewed, then every image is on the image origin, sized, without referrer, with alt; posts\u2019 images are lazy', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    const imgs = images(html);
    expect(imgs.length).toBeGreaterThanOrEqual(4);
    for (const img of imgs) {
      expect(img.src!.startsWith(`${stack.emulator.url}/`)).toBe(true);
      expect(Number(img.width)).toBeGreaterThan(0);
      expect(Number(img.height)).toBeGreaterThan(0);
      expect(img.referrerpolicy).toBe('no-referrer');
      expect(img).toHaveProperty('alt');
    }
    const postImages = images(find(html, { tag: 'ol', class: 'posts' })!);
    expect(postImages.length).toBeGreaterThan(0);
    expect(postImages.every((img) => img.loading === 'lazy')).toBe(true);
    // The header card: the Page's link (on FB_AUTH_URL's origin, here the emulator's: docs/provider-interface.md#web-links),
    // its followers, the Page's picture above the fold (not lazy).
    const card = find(html, { tag: 'section', class: 'page-card' })!;
    expect(linkTo(card, 'View on Facebook')).toMatchObject({
      href: `${stack.emulator.url}/${BAKERY}`,
      rel: ['noopener', 'noreferrer'],
    });
    expect(findAll(card, 'span').map(textOf)).toContainEqual(expect.stringMatching(/^[\d,]+ followers?$/));
    expect(images(html).find((img) => img.class === 'profile')).not.toHaveProperty('loading');
    // One feed call asking for exactly the fields a post shows.
    const feedCall = stack.emulator.controls.log.find((e) => e.path.endsWith(`/${BAKERY}/feed`));
    expect(feedCall?.query.fields).toContain('reactions.summary(total_count).limit(0)');
  });

  it('when a post carries markup, a javascript: text and a URL with quotes, then all is escaped and only the http(s) URL is a link', async () => {
    const before = '<script>window.__x=1</script> javascript:alert(1) see';
    stack.emulator.controls.addPost({ pageId: BAKERY, message: `${before} https://shop.example/a"onmouseover="x'.` });
    const agent = await connectedAgent(stack, BAKERY);
    const html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(findAll(html, 'script').filter((script) => textOf(script).includes('__x'))).toEqual([]);
    expect(visibleText(html)).toContain(`${before} https://shop.example/a "onmouseover="x'.`);
    expect(linkTo(html, 'https://shop.example/a')).toMatchObject({
      href: 'https://shop.example/a',
      rel: ['noopener', 'noreferrer', 'nofollow'],
    });
    expect(links(html).filter((l) => /^javascript:/i.test(l.href))).toEqual([]);
  });

  it('when FB_IMAGE_ORIGINS does not list where the pictures are, then no picture is rendered and the CSP lists only what was set', async () => {
    const other = await startStack({ env: { FB_IMAGE_ORIGINS: 'https://*.cdn.example' } });
    try {
      const agent = agentFor(other);
      await signInAndConnect(agent, BAKERY);
      const res = await agent.get(`/pages/${BAKERY}`).expect(200);
      expect(res.headers['content-security-policy']).toContain("img-src 'self' https://*.cdn.example;");
      expect(images(res.text)).toEqual([]);
      // The posts are still there, their counts and links too.
      expect(findAll(res.text, { tag: 'p', class: 'post-foot' }).length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe('GET /pages/:pageId/feed, the position', () => {
  const stack = useStack();

  it('when older posts are followed from the page, then "Posts 26–50" and Newer posts leads back to the page view', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    const first = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    expect(position(first)).toBe('Posts 1–25');
    const older = hrefOf(first, 'Older posts')!;
    expect(older).toMatch(/&offset=25$/);
    const second = (await agent.get(older).expect(200)).text;
    expect(position(second)).toBe('Posts 26–50');
    expect(hrefOf(second, 'Newer posts')).toBe(`/pages/${BAKERY}`);
  });

  it('when the last page is reached, then it says it ends with the Page\u2019s first post', async () => {
    const agent = await connectedAgent(stack, BAKERY);
    let html = (await agent.get(`/pages/${BAKERY}`).expect(200)).text;
    for (let hop = 0; hop < 10; hop++) {
      const older = hrefOf(html, 'Older posts');
      if (!older) break;
      html = (await agent.get(older).expect(200)).text;
    }
    expect(visibleText(html)).toContain("That's the first post on this Page.");
    expect(links(html).filter((l) => l.rel.includes('next'))).toEqual([]);
  });

  it.each([['-1'], ['abc'], ['1e3'], ['2.5'], ['100001'], ['9'.repeat(11)]])(
    'when the offset is %s, then 400 and no upstream call',
    async (offset) => {
      const agent = await connectedAgent(stack, BAKERY);
      const before = graphCalls(stack);
      const res = await agent.get(`/pages/${BAKERY}/feed?after=QVFI&offset=${offset}`).expect(400);
      expect(visibleText(res.text)).toContain('offset');
      expect(graphCalls(stack)).toBe(before);
    },
  );
});
