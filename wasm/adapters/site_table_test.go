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
