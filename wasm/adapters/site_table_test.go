package adapters

import "testing"

// siteCases lists, per adapter, real addresses of its site that must get
// it and look-alike or neighbouring addresses that must not.
var siteCases = []struct {
	id  string
	own []string
	not []string
}{
	{"proton-mail", []string{"https://mail.proton.me/u/0/inbox"}, []string{"https://mail.proton.me.evil.net/u/0/inbox", "https://evil-proton.me/", "https://proton.me/mail"}},
	{"zoho-mail", []string{"https://mail.zoho.com/zm/#mail/folder/inbox", "https://mail.zoho.eu/zm/", "https://mail.zoho.com.au/zm/"}, []string{"https://mail.zoho.com.evil.net/", "https://mail.zoho-login.com/", "https://crm.zoho.com/crm/"}},
	{"microsoft-365", []string{"https://www.office.com/?auth=2", "https://www.microsoft365.com/launch/word", "https://m365.cloud.microsoft/"}, []string{"https://www.office.com.evil.net/", "https://evil-office.com/", "https://m365.cloud.microsoft.evil.net/"}},
	{"onedrive", []string{"https://onedrive.live.com/?id=root", "https://contoso-my.sharepoint.com/personal/a_contoso_com/_layouts/15/onedrive.aspx", "https://contoso.sharepoint.com/sites/Team/Shared%20Documents"}, []string{"https://onedrive.live.com.evil.net/", "https://evil-sharepoint.com/", "https://contoso.sharepoint.com.evil.net/"}},
	{"icloud", []string{"https://www.icloud.com/mail/", "https://icloud.com/iclouddrive/", "https://www.icloud.com.cn/photos/"}, []string{"https://www.icloud.com.evil.net/", "https://evil-icloud.com/", "https://icloud.co/"}},
	{"google-slides", []string{"https://docs.google.com/presentation/d/abc/edit#slide=id.p"}, []string{"https://docs.google.com/document/d/abc/edit", "https://docs.google.com.evil.net/presentation/d/abc", "https://docs.google.com/presentations"}},
	{"google-forms", []string{"https://docs.google.com/forms/d/e/abc/viewform", "https://docs.google.com/forms/d/abc/edit"}, []string{"https://docs.google.com/formsx/d/abc", "https://docs.google.com.evil.net/forms/d/abc/viewform"}},
	{"google-chat", []string{"https://chat.google.com/room/AAA", "https://mail.google.com/chat/u/0/#chat/dm/abc"}, []string{"https://mail.google.com/mail/u/0/#inbox", "https://chat.google.com.evil.net/", "https://evil-google.com/chat"}},
	{"google-classroom", []string{"https://classroom.google.com/u/0/c/abc"}, []string{"https://classroom.google.com.evil.net/", "https://classroom-google.com/"}},
	{"bitbucket", []string{"https://bitbucket.org/team/repo/pull-requests/1"}, []string{"https://bitbucket.org.evil.net/", "https://evil-bitbucket.org/", "https://team.bitbucket.io/"}},
	{"npm", []string{"https://www.npmjs.com/package/@scope/name", "https://npmjs.com/search?q=react"}, []string{"https://www.npmjs.com.evil.net/", "https://evil-npmjs.com/", "https://docs.npmjs.org/"}},
	{"pypi", []string{"https://pypi.org/project/requests/"}, []string{"https://pypi.org.evil.net/", "https://evil-pypi.org/", "https://test.pypi.org/project/x/"}},
	{"vercel", []string{"https://vercel.com/team/project/deployments"}, []string{"https://my-app.vercel.app/", "https://vercel.com.evil.net/", "https://evil-vercel.com/"}},
	{"figma", []string{"https://www.figma.com/design/KEY/Name", "https://figma.com/files/recents-and-sharing"}, []string{"https://www.figma.com.evil.net/", "https://evil-figma.com/", "https://figma.site/"}},
	{"miro", []string{"https://miro.com/app/board/abc=/"}, []string{"https://miro.com.evil.net/app/board/abc=/", "https://evil-miro.com/"}},
	{"asana", []string{"https://app.asana.com/0/123/456"}, []string{"https://app.asana.com.evil.net/", "https://asana.com/pricing", "https://evil-asana.com/"}},
	{"clickup", []string{"https://app.clickup.com/123/v/l/abc"}, []string{"https://app.clickup.com.evil.net/", "https://clickup.com/pricing"}},
	{"monday", []string{"https://acme.monday.com/boards/123", "https://monday.com/"}, []string{"https://acme.monday.com.evil.net/", "https://evil-monday.com/"}},
	{"airtable", []string{"https://airtable.com/appABC/tblDEF/viwGHI"}, []string{"https://airtable.com.evil.net/", "https://evil-airtable.com/"}},
	{"canva", []string{"https://www.canva.com/design/ABC/edit"}, []string{"https://www.canva.com.evil.net/", "https://evil-canva.com/"}},
	{"hugging-face", []string{"https://huggingface.co/datasets/owner/name", "https://huggingface.co/models?search=bert"}, []string{"https://owner-space.hf.space/", "https://huggingface.co.evil.net/", "https://evil-huggingface.co/"}},
	{"bestbuy", []string{"https://www.bestbuy.com/site/searchpage.jsp?st=tv", "https://www.bestbuy.ca/en-ca/product/x/1"}, []string{"https://www.bestbuy.com.evil.net/", "https://evil-bestbuy.com/", "https://bestbuy.co/"}},
	{"costco", []string{"https://www.costco.com/CatalogSearch?keyword=tv", "https://www.costco.ca/"}, []string{"https://www.costco.com.evil.net/", "https://evil-costco.com/"}},
	{"home-depot", []string{"https://www.homedepot.com/s/drill", "https://www.homedepot.ca/"}, []string{"https://www.homedepot.com.evil.net/", "https://evil-homedepot.com/"}},
	{"ikea", []string{"https://www.ikea.com/us/en/p/x-123/"}, []string{"https://www.ikea.com.evil.net/", "https://evil-ikea.com/"}},
	{"rakuten", []string{"https://search.rakuten.co.jp/search/mall/tea/", "https://item.rakuten.co.jp/shop/item/", "https://www.rakuten.co.jp/"}, []string{"https://travel.rakuten.co.jp/", "https://www.rakuten.co.jp.evil.net/", "https://evil-rakuten.co.jp/"}},
	{"mercado-libre", []string{"https://www.mercadolibre.com.mx/", "https://listado.mercadolibre.com.ar/celular", "https://www.mercadolivre.com.br/"}, []string{"https://www.mercadolibre.com.mx.evil.net/", "https://mercadolibre.evil.com/", "https://evil-mercadolibre.com/"}},
	{"flipkart", []string{"https://www.flipkart.com/search?q=phone"}, []string{"https://www.flipkart.com.evil.net/", "https://evil-flipkart.com/"}},
	{"temu", []string{"https://www.temu.com/"}, []string{"https://www.temu.com.evil.net/", "https://evil-temu.com/"}},
	{"shein", []string{"https://us.shein.com/"}, []string{"https://us.shein.com.evil.net/", "https://evil-shein.com/"}},
	{"shopify", []string{"https://admin.shopify.com/store/acme/orders", "https://acme.myshopify.com/products/mug"}, []string{"https://admin.shopify.com.evil.net/", "https://evil-myshopify.com/", "https://shopify.com.evil.net/"}},
	{"taobao", []string{"https://s.taobao.com/search?q=tea", "https://detail.tmall.com/item.htm?id=1"}, []string{"https://s.taobao.com.evil.net/", "https://evil-taobao.com/"}},
	{"kayak", []string{"https://www.kayak.com/flights/LHR-JFK/2026-05-01", "https://www.kayak.co.uk/hotels"}, []string{"https://www.kayak.com.evil.net/", "https://kayak.evil.com/", "https://evil-kayak.com/"}},
	{"skyscanner", []string{"https://www.skyscanner.net/transport/flights/lond/nyca/260501/", "https://www.skyscanner.com.au/"}, []string{"https://www.skyscanner.net.evil.net/", "https://skyscanner.evil.com/"}},
	{"google-travel", []string{"https://www.google.com/travel/flights?q=x", "https://www.google.co.uk/travel/hotels"}, []string{"https://www.google.com/travelling", "https://www.google.com.evil.net/travel/flights", "https://evil-google.com/travel/flights"}},
	{"uber", []string{"https://m.uber.com/go/home", "https://riders.uber.com/trips"}, []string{"https://m.uber.com.evil.net/", "https://evil-uber.com/", "https://www.ubereats.com/"}},
	{"lyft", []string{"https://ride.lyft.com/"}, []string{"https://ride.lyft.com.evil.net/", "https://evil-lyft.com/"}},
	{"agoda", []string{"https://www.agoda.com/search?city=1"}, []string{"https://www.agoda.com.evil.net/", "https://evil-agoda.com/"}},
	{"trip-com", []string{"https://www.trip.com/hotels/", "https://uk.trip.com/flights/"}, []string{"https://www.trip.com.evil.net/", "https://evil-trip.com/", "https://trip.co/"}},
	{"pinterest", []string{"https://www.pinterest.com/search/pins/?q=cake", "https://de.pinterest.com/pin/1/", "https://www.pinterest.co.uk/"}, []string{"https://www.pinterest.com.evil.net/", "https://pinterest.evil.com/", "https://evil-pinterest.com/"}},
	{"threads", []string{"https://www.threads.com/@someone/post/abc", "https://www.threads.net/@someone"}, []string{"https://www.threads.com.evil.net/", "https://evil-threads.net/"}},
	{"snapchat", []string{"https://www.snapchat.com/web/abc", "https://web.snapchat.com/"}, []string{"https://www.snapchat.com/", "https://www.snapchat.com/webx", "https://web.snapchat.com.evil.net/", "https://evil-snapchat.com/web"}},
	{"twitch", []string{"https://www.twitch.tv/somechannel", "https://m.twitch.tv/"}, []string{"https://www.twitch.tv.evil.net/", "https://evil-twitch.tv/"}},
	{"weibo", []string{"https://s.weibo.com/weibo?q=x", "https://weibo.com/123/abc", "https://m.weibo.cn/"}, []string{"https://weibo.com.evil.net/", "https://evil-weibo.com/"}},
	{"bilibili", []string{"https://www.bilibili.com/video/BV1xx", "https://search.bilibili.com/all?keyword=x"}, []string{"https://www.bilibili.com.evil.net/", "https://evil-bilibili.com/"}},
	{"zhihu", []string{"https://www.zhihu.com/question/1", "https://zhuanlan.zhihu.com/p/1"}, []string{"https://www.zhihu.com.evil.net/", "https://evil-zhihu.com/"}},
	{"vk", []string{"https://vk.com/im", "https://m.vk.com/feed"}, []string{"https://vk.com.evil.net/", "https://evil-vk.com/", "https://vkontakte.evil.com/"}},
	{"naver", []string{"https://search.naver.com/search.naver?query=x", "https://blog.naver.com/id/1", "https://www.naver.com/"}, []string{"https://www.naver.com.evil.net/", "https://evil-naver.com/"}},
	{"baidu", []string{"https://www.baidu.com/s?wd=x", "https://m.baidu.com/"}, []string{"https://www.baidu.com.evil.net/", "https://evil-baidu.com/", "https://tieba.baidu.com/"}},
	{"yandex", []string{"https://yandex.com/search/?text=x", "https://yandex.ru/search/?text=x", "https://ya.ru/"}, []string{"https://yandex.com/maps/", "https://yandex.com.evil.net/search/", "https://yandex.evil.com/search/", "https://ya.ru.evil.net/"}},
	{"yahoo-japan", []string{"https://search.yahoo.co.jp/search?p=x", "https://news.yahoo.co.jp/"}, []string{"https://www.yahoo.co.jp.evil.net/", "https://evil-yahoo.co.jp/", "https://www.yahoo.com.evil.net/"}},
	{"google-scholar", []string{"https://scholar.google.com/scholar?q=x", "https://scholar.google.de/"}, []string{"https://scholar.google.com.evil.net/", "https://scholar.google.evil.com/", "https://evil-google.com/scholar"}},
	{"arxiv", []string{"https://arxiv.org/abs/2401.01234", "https://export.arxiv.org/abs/1"}, []string{"https://arxiv.org.evil.net/", "https://evil-arxiv.org/"}},
	{"imdb", []string{"https://www.imdb.com/title/tt0111161/", "https://m.imdb.com/"}, []string{"https://www.imdb.com.evil.net/", "https://evil-imdb.com/"}},
	{"goodreads", []string{"https://www.goodreads.com/book/show/1"}, []string{"https://www.goodreads.com.evil.net/", "https://evil-goodreads.com/"}},
	{"yelp", []string{"https://www.yelp.com/search?find_desc=pizza&find_loc=Boston", "https://www.yelp.co.uk/"}, []string{"https://www.yelp.com.evil.net/", "https://yelp.evil.com/", "https://evil-yelp.com/"}},
	{"craigslist", []string{"https://sfbay.craigslist.org/search/sss?query=bike"}, []string{"https://sfbay.craigslist.org.evil.net/", "https://evil-craigslist.org/"}},
	{"indeed", []string{"https://www.indeed.com/jobs?q=nurse&l=Boston", "https://uk.indeed.com/"}, []string{"https://www.indeed.com.evil.net/", "https://evil-indeed.com/"}},
	{"glassdoor", []string{"https://www.glassdoor.com/Reviews/x.htm", "https://www.glassdoor.co.uk/"}, []string{"https://www.glassdoor.com.evil.net/", "https://glassdoor.evil.com/"}},
	{"coursera", []string{"https://www.coursera.org/learn/machine-learning"}, []string{"https://www.coursera.org.evil.net/", "https://evil-coursera.org/"}},
	{"khan-academy", []string{"https://www.khanacademy.org/math"}, []string{"https://www.khanacademy.org.evil.net/", "https://evil-khanacademy.org/"}},
	{"duolingo", []string{"https://www.duolingo.com/learn"}, []string{"https://www.duolingo.com.evil.net/", "https://evil-duolingo.com/"}},
	{"bank-of-america", []string{"https://secure.bankofamerica.com/myaccounts/signin/signIn.go"}, []string{"https://secure.bankofamerica.com.evil.net/", "https://evil-bankofamerica.com/", "https://bankofamerica-login.com/"}},
	{"wells-fargo", []string{"https://connect.secure.wellsfargo.com/auth/login/present"}, []string{"https://connect.secure.wellsfargo.com.evil.net/", "https://evil-wellsfargo.com/"}},
	{"revolut", []string{"https://app.revolut.com/home"}, []string{"https://app.revolut.com.evil.net/", "https://evil-revolut.com/"}},
	{"wise", []string{"https://wise.com/home", "https://wise.com/send"}, []string{"https://wise.com.evil.net/", "https://evil-wise.com/", "https://otherwise.com/"}},
	{"stripe", []string{"https://dashboard.stripe.com/payments"}, []string{"https://checkout.stripe.com/c/pay/x", "https://dashboard.stripe.com.evil.net/", "https://evil-stripe.com/"}},
	{"chatgpt", []string{"https://chatgpt.com/c/abc", "https://chat.openai.com/"}, []string{"https://chatgpt.com.evil.net/", "https://evil-chatgpt.com/", "https://openai.com/"}},
	{"claude", []string{"https://claude.ai/chat/abc"}, []string{"https://claude.ai.evil.net/", "https://evil-claude.ai/", "https://docs.claude.com/"}},
	{"gemini", []string{"https://gemini.google.com/app/abc"}, []string{"https://gemini.google.com.evil.net/", "https://evil-google.com/gemini"}},
	{"perplexity", []string{"https://www.perplexity.ai/search/abc", "https://perplexity.ai/"}, []string{"https://www.perplexity.ai.evil.net/", "https://evil-perplexity.ai/"}},
	{"copilot", []string{"https://copilot.microsoft.com/chats/abc"}, []string{"https://copilot.microsoft.com.evil.net/", "https://evil-microsoft.com/copilot"}},
	{"deepseek", []string{"https://chat.deepseek.com/a/chat/s/abc"}, []string{"https://chat.deepseek.com.evil.net/", "https://evil-deepseek.com/"}},
	{"cnet", []string{"https://www.cnet.com/tech/mobile/x/", "https://cnet.com/es/noticias/x/"}, []string{"https://www.cnet.com.evil.net/", "https://evil-cnet.com/"}},
}

// Each new site's adapter matches its own addresses and no look-alike.
func TestSiteTableMatches(t *testing.T) {
	for _, c := range siteCases {
		for _, u := range c.own {
			if a := Match(u); a == nil || a.ID != c.id {
				t.Errorf("Match(%q) = %v, want %s", u, a, c.id)
			}
		}
		for _, u := range c.not {
			if a := Match(u); a != nil && a.ID == c.id {
				t.Errorf("Match(%q) = %s, want another or none", u, c.id)
			}
		}
	}
}
