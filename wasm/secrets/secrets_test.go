package secrets

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const (
	jwt       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	awsID     = "AKIAIOSFODNN7EXAMPLE"
	awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	pem       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Bq\nc1Xo8HjTqK9Vd0aRZ\n-----END RSA PRIVATE KEY-----"
)

// found renders matches as "kind:value" for comparison.
func found(text string) []string {
	var out []string
	for _, m := range Find(text) {
		out = append(out, string(m.Kind)+":"+m.Value)
	}
	return out
}

func TestFind(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		// Known key formats.
		{"openai", "OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", []string{"api_key:sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"}},
		{"openai legacy", "use sk-9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT in the header", []string{"api_key:sk-9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT"}},
		{"openrouter", "OPENROUTER_API_KEY=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", []string{"api_key: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"}},
		{"diners", "Diners 3056 930902 5904", []string{"card:3056 930902 5904"}},
		{"anthropic", "x-api-key: sk-ant-api03-Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa-_xYz12345AA", []string{"api_key:sk-ant-api03-Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7Aa-_xYz12345AA"}},
		{"github classic", "token ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt ok", []string{"api_key:ghp_aBcD1234EfGh5678IjKl9012MnOp3456QrSt"}},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF", []string{"api_key:github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF"}},
		{"github app", "GH_TOKEN=ghs_16C7e42F292c6912E7710c838347Ae178B4a", []string{"api_key:ghs_16C7e42F292c6912E7710c838347Ae178B4a"}},
		{"gitlab", "glpat-xYz123AbC456dEf789Gh", []string{"api_key:glpat-xYz123AbC456dEf789Gh"}},
		{"slack", "SLACK_BOT_TOKEN=xoxb-2400-8765-Tz9Yx8Wv7Ut6", []string{"api_key:xoxb-2400-8765-Tz9Yx8Wv7Ut6"}},
		{"aws pair", "aws_access_key_id = " + awsID + "\naws_secret_access_key = " + awsSecret, []string{"api_key:" + awsID, "api_key:" + awsSecret}},
		{"google", "https://maps.googleapis.com/maps/api/js?key=AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", []string{"api_key:AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"}},
		{"stripe", "Stripe.apiKey = 'sk_live_51H8xQ2Lk3J4h5G6f7D8s9A0'; webhook whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", []string{"api_key:sk_live_51H8xQ2Lk3J4h5G6f7D8s9A0", "api_key:whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}},
		{"stripe publishable", "pk_live_51H8xQ2Lk3J4h5G6f7D8s9A0", []string{"api_key:pk_live_51H8xQ2Lk3J4h5G6f7D8s9A0"}},
		{"twilio", "SK2a4c6e8f0b1d3f5a7c9e1b3d5f7a9c1e", []string{"api_key:SK2a4c6e8f0b1d3f5a7c9e1b3d5f7a9c1e"}},
		{"sendgrid", "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", []string{"api_key: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"}},
		{"npm", "//registry.npmjs.org/:_authToken=npm_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5", []string{"api_key:npm_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"}},
		{"jwt", "Cookie: session=" + jwt + "; Path=/", []string{"token:" + jwt}},
		{"bearer", "Authorization: Bearer 8f1e2d3c4b5a69788796a5b4c3d2e1f0", []string{"token:8f1e2d3c4b5a69788796a5b4c3d2e1f0"}},
		{"pem", "key file:\n" + pem + "\nend", []string{"private_key:" + pem}},
		{"pem cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n", []string{"private_key:-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ"}},

		// Labelled keys and tokens, seven languages.
		{"api key label", "Your API key: 9f8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c", []string{"api_key:9f8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c"}},
		{"json secret", `{"client_secret": "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"}`, []string{"api_key:Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2"}},
		{"env token", "GITHUB_TOKEN=a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0", []string{"token:a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0"}},
		{"camel access token", "accessToken: 'Qm9yZGVyMTIzNDU2Nzg5MGFiY2RlZg'", []string{"token:Qm9yZGVyMTIzNDU2Nzg5MGFiY2RlZg"}},
		{"de key", "Ihr API-Schlüssel lautet: 7Hq2Lm9Xc4Vb8Nz1Kd5Rt3", []string{"api_key:7Hq2Lm9Xc4Vb8Nz1Kd5Rt3"}},
		{"fr key", "Votre clé API : Ab12Cd34Ef56Gh78Ij90", []string{"api_key:Ab12Cd34Ef56Gh78Ij90"}},
		{"es key", "Tu clave API es 5d41402abc4b2a76b9719d911017c592", []string{"api_key:5d41402abc4b2a76b9719d911017c592"}},
		{"pt key", "Sua chave de API: K8s7D6f5G4h3J2k1L0z9", []string{"api_key:K8s7D6f5G4h3J2k1L0z9"}},
		{"zh key", "您的密钥：3f7a9c2e1b8d4f6a0c5e", []string{"api_key:3f7a9c2e1b8d4f6a0c5e"}},
		{"ja token", "アクセストークン：ya29Ab3Cd5Ef7Gh9Ij1Kl3", []string{"token:ya29Ab3Cd5Ef7Gh9Ij1Kl3"}},

		{"camel api key", "const apiKey = \"AbCdEf0123456789GhIj\";", []string{"api_key:AbCdEf0123456789GhIj"}},
		{"session cookie", "Cookie: sessionid=8f7a6b5c4d3e2f1a0b9c8d7e; theme=dark", []string{"token:8f7a6b5c4d3e2f1a0b9c8d7e"}},

		// Passwords.
		{"env password", "DB_PASSWORD=Pg!9xQ2#rT", []string{"password:Pg!9xQ2#rT"}},
		{"en password", "Username: ada\nPassword: hunter2", []string{"password:hunter2"}},
		{"en password sentence", "Your temporary password is Xk7#pq2!. Change it after login.", []string{"password:Xk7#pq2!"}},
		{"de password", "Passwort: Sommer2024!", []string{"password:Sommer2024!"}},
		{"de kennwort", "Ihr neues Kennwort lautet geheim99", []string{"password:geheim99"}},
		{"fr password", "Mot de passe : Soleil#42", []string{"password:Soleil#42"}},
		{"fr no-break space", "Mot de passe\u00a0: Soleil#42\u00a0; code de vérification\u00a0: 662104", []string{"password:Soleil#42", "otp:662104"}},
		{"es password", "Contraseña: perro-azul-7", []string{"password:perro-azul-7"}},
		{"pt password", "Sua senha é Brasil@2026.", []string{"password:Brasil@2026"}},
		{"zh password", "登录密码：abc12345，请妥善保管", []string{"password:abc12345"}},
		{"ja password", "パスワード：Sakura2026です", []string{"password:Sakura2026"}},
		{"quoted password", `login("ada", password="correct horse battery")`, []string{"password:correct horse battery"}},
		{"json password", `{"user":"ada","password":"s3cr3t!"}`, []string{"password:s3cr3t!"}},
		{"bold label", "**Password:** Tr0ub4dor&3", []string{"password:Tr0ub4dor&3"}},
		{"query password", "POST /login?user=ada&password=s3cret!x&remember=1", []string{"password:s3cret!x"}},
		{"code sample password", `body: "firstName=Nikhil&password=easytoguess"`, []string{"password:easytoguess"}},

		// One-time codes.
		{"en otp", "Your verification code is 482913. It expires in 10 minutes.", []string{"otp:482913"}},
		{"en code colon", "Code: 7731", []string{"otp:7731"}},
		{"en otp spaced", "Your one-time code: 482 913", []string{"otp:482 913"}},
		{"en pin", "PIN: 4821", []string{"otp:4821"}},
		{"de otp", "Ihr Bestätigungscode lautet 551902", []string{"otp:551902"}},
		{"de tan", "TAN: 839201", []string{"otp:839201"}},
		{"fr otp", "Votre code de vérification est : 662104", []string{"otp:662104"}},
		{"es otp", "Tu código es 3391", []string{"otp:3391"}},
		{"pt otp", "Seu código de verificação: 908172", []string{"otp:908172"}},
		{"zh otp", "【银行】您的验证码是628401，5分钟内有效。", []string{"otp:628401"}},
		{"ja otp", "認証コードは 731605 です。", []string{"otp:731605"}},
		{"otp next line", "Verification code\n\n482913\n", []string{"otp:482913"}},

		// Cards, IBANs, CVVs.
		{"visa spaced", "Card: 4111 1111 1111 1111 exp 12/29", []string{"card:4111 1111 1111 1111"}},
		{"visa compact", "pay with 4242424242424242.", []string{"card:4242424242424242"}},
		{"amex", "Amex 3782 822463 10005", []string{"card:3782 822463 10005"}},
		{"mastercard dashes", "5555-5555-5555-4444", []string{"card:5555-5555-5555-4444"}},
		{"mastercard 2-series", "Karte 2223 0031 2200 3222", []string{"card:2223 0031 2200 3222"}},
		{"card then cvv", "4111 1111 1111 1111 123", []string{"card:4111 1111 1111 1111"}},
		{"card and cvv labelled", "Kartennummer 4242 4242 4242 4242, CVV: 737", []string{"card:4242 4242 4242 4242", "cvv:737"}},
		{"de cvv", "Kartenprüfnummer: 123", []string{"cvv:123"}},
		{"es cvv", "código de seguridad: 456", []string{"cvv:456"}},
		{"amex cid", "CVV 1234", []string{"cvv:1234"}},
		{"iban de", "IBAN: DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX", []string{"iban:DE89 3704 0044 0532 0130 00"}},
		{"iban gb compact", "GB29NWBK60161331926819", []string{"iban:GB29NWBK60161331926819"}},
		{"iban fr", "FR14 2004 1010 0505 0001 3M02 606", []string{"iban:FR14 2004 1010 0505 0001 3M02 606"}},
		{"iban es", "Cuenta ES91 2100 0418 4502 0005 1332", []string{"iban:ES91 2100 0418 4502 0005 1332"}},
		{"iban pt", "NIB/IBAN PT50 0002 0123 1234 5678 9015 4", []string{"iban:PT50 0002 0123 1234 5678 9015 4"}},
		{"several", "user ada password: pa55word! and code: 9911", []string{"password:pa55word!", "otp:9911"}},

		// Ordinary text: nothing.
		{"prices", "Total: 1.299,00 € (incl. 19% VAT). Was $2,499.99, now 1 299 kr.", nil},
		{"dates and times", "Delivered on 2026-11-30 at 14:05; next on 30.11.2026.", nil},
		{"phone numbers", "Call +49 30 1234 5678 or (555) 123-4567; fax +1 415 555 0132.", nil},
		{"order number", "Order #4011 2233 8812 shipped. Bestellnummer 302-4455123-7781231.", nil},
		{"long order number", "Order 4000123456789017 confirmed.", []string{"card:4000123456789017"}}, // Luhn-valid 16 digits: indistinguishable from a card
		{"tracking number", "Tracking: 1Z999AA10123456784", nil},
		{"uuid url", "https://shop.example/orders/550e8400-e29b-41d4-a716-446655440000/details", nil},
		{"commit hash", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nMerge: 1a2b3c4 5d6e7f8", nil},
		{"postal code", "Postal code: 10115 Berlin. ZIP code: 94103. Code postal : 75001 Paris. Código postal: 28013", nil},
		{"discount code", "Use discount code: 2024 at checkout. Promo code: 5599", nil},
		{"http status", "Error code: 404. Status code: 500", nil},
		{"password prose", "Password: must be at least 8 characters. Forgot your password? Reset password", nil},
		{"password placeholder", "Password: ••••••••\nPasswort: ********\npassword: (none)\nPassword: required", nil},
		{"ean barcode", "EAN: 4006381333931, GTIN 4011200296908", nil},
		{"sk in url path", "https://shop.example/sk-products2024summersaleitems-list and /sk-summer-sale-2024-all-items-here", nil},
		{"decimals", "p = 1.2511263318488451, q = 3.4114080550460080", nil},
		{"ad client id", "data-ad-client=ca-pub-6865528665029394 and id ~~V1~~3178247457211747916", nil},
		{"random ids", "transactionId: 1234567890123452, pixel 224284281076687", nil},
		{"json null password", `{"slug":"a","password":null},{"id":2}`, nil},
		{"chinese id number", "身份证号：110101199003074477", nil},
		{"password field", `textbox "Password" [ref_12]`, nil},
		{"de prose", "Das Passwort muss mindestens 8 Zeichen haben. Passwort vergessen?", nil},
		{"fr prose", "Mot de passe oublié ? Saisissez votre adresse e-mail.", nil},
		{"token prose", "Each token costs $0.002. Token: ERC-20. The session ended.", nil},
		{"secret prose", "The secret to great coffee is 2 tablespoons per cup.", nil},
		{"code in prose", "The code below sorts 1000 items in 20 ms.", nil},
		{"sk in word", "Ask-me-anything-2026-edition-of-the-show and task-1234567890abcdefghij", nil},
		{"iban bad checksum", "DE89 3704 0044 0532 0130 01", nil},
		{"card bad luhn", "4111 1111 1111 1112", nil},
		{"isbn", "ISBN 978-3-16-148410-0", nil},
		{"zh prose", "请输入密码。验证码已发送到您的手机。价格：¥1299", nil},
		{"ja prose", "パスワードを忘れた場合はこちら。合計 12,800円", nil},
		{"version numbers", "Chrome 131.0.6778.85, Go 1.26.8, build 20261130", nil},
		{"coordinates", "52.520008, 13.404954", nil},
		{"bearer prose", "The bearer of this card is entitled to a discount.", nil},
	}
	for _, c := range cases {
		got := found(c.text)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: %q\n got %q\nwant %q", c.name, c.text, got, c.want)
		}
	}
}

func TestMaskKeepsAHint(t *testing.T) {
	text := "key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z, card 4111 1111 1111 1111, IBAN DE89370400440532013000, Passwort: Sommer2024!"
	got := Mask(text, nil)
	want := "key sk-proj-…[API key hidden], card [card number ending 1111 hidden], IBAN DE…[IBAN ending 3000 hidden], Passwort: [password hidden]"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	kept := Mask(text, func(m Match) bool { return m.Kind == KindCard })
	if !strings.Contains(kept, "4111 1111 1111 1111") || strings.Contains(kept, "Sommer2024") {
		t.Errorf("keep ignored: %q", kept)
	}
	if Mask("nothing here", nil) != "nothing here" {
		t.Error("text without secrets changed")
	}
}

func TestContains(t *testing.T) {
	cases := []struct {
		text, value string
		want        bool
	}{
		{"card 4111 1111 1111 1111 ok", "4111111111111111", true},
		{"card 4111-1111-1111-1111", "4111 1111 1111 1111", true},
		{"card 4111111111111111", "4111 1111 1111 1111", true},
		{"card 41111111111111119", "4111111111111111", false},
		{"PIN 4821 sent", "4821", true},
		{"order 148210", "4821", false},
		{"token abc123XYZ in url", "abc123XYZ", true},
		{"token abc123xyz", "abc123XYZ", false},
		{"anything", "", false},
		{"4111 1111", "4111 1111 1111 1111", false},
	}
	for _, c := range cases {
		if got := Contains(c.text, c.value); got != c.want {
			t.Errorf("Contains(%q, %q) = %v", c.text, c.value, got)
		}
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"Password: hunter2", "code: 123456", "4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00",
		jwt, pem, "Bearer abcdef0123456789", awsID + " " + awsSecret, "密码：abc123", "-----BEGIN PRIVATE KEY-----",
		"\xff\xfe api key: \xe2\x80", "SG.", "eyJ.eyJ.", "AKIA", "IBAN DE",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		end := 0
		for _, m := range Find(text) {
			if m.Start < end || m.Start >= m.End || m.End > len(text) || text[m.Start:m.End] != m.Value {
				t.Fatalf("bad match %+v after %d in %q", m, end, text)
			}
			end = m.End
		}
		masked := Mask(text, nil)
		if utf8.ValidString(text) && !utf8.ValidString(masked) {
			t.Fatalf("mask broke UTF-8: %q", masked)
		}
		Contains(text, text)
	})
}

// pageText is 8,000 characters of a shop page in several languages with a
// few secrets in it.
func pageText() string {
	para := "Blue mug, 350 ml — 12,99 € (inkl. MwSt.). Lieferung bis 02.12.2026. Call +49 30 1234 5678. " +
		"Order #302-4455123-7781231. Livraison gratuite dès 49 €. Envío en 24 horas. Frete grátis. 送料無料。价格：¥89。\n" +
		"Reviews: 4.7 of 5 (1,204). https://shop.example/p/550e8400-e29b-41d4-a716-446655440000?ref=home\n"
	var b strings.Builder
	for b.Len() < 7600 {
		b.WriteString(para)
	}
	b.WriteString("Your verification code is 482913. Passwort: Sommer2024! Card 4111 1111 1111 1111.\n")
	s := b.String()
	for utf8.RuneCountInString(s) > 8000 {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

func BenchmarkFind(b *testing.B) {
	text := pageText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Find(text)
	}
}
