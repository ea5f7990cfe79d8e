import { formatWebsite } from '../../src/pages/page-view';

describe('the website link on a page', () => {
  it('when the website is typed with backslashes, then the link text is the address the link goes to', () => {
    expect(formatWebsite('https:\\\\evil.example')).toEqual({
      text: 'https://evil.example/',
      href: 'https://evil.example/',
    });
  });

  it('when the website is an ordinary URL, then text and link are the normalised address', () => {
    expect(formatWebsite('HTTP://Hopper-Cafe.example')).toEqual({
      text: 'http://hopper-cafe.example/',
      href: 'http://hopper-cafe.example/',
    });
  });
});
