package guard

import (
	"strings"
	"testing"
)

// Control builders for the table: the probe's view of common controls.
func btn(name string) Control {
	return Control{Tool: "click_ax", Tag: "button", Role: "button", Type: "button", Name: name}
}

func divBtn(name string) Control {
	return Control{Tool: "click_ax", Tag: "div", Role: "button", Name: name}
}

func link(name, href string) Control {
	return Control{Tool: "click_ax", Tag: "a", Role: "link", Name: name, Href: href}
}

func menuItem(name string) Control {
	return Control{Tool: "click_ax", Tag: "div", Role: "menuitem", Name: name}
}

// inDialog puts a button in a dialog that shows text.
func inDialog(name, dialog string) Control {
	c := btn(name)
	c.Dialog = dialog
	return c
}

// submit is a form's submit button.
func submit(name, method string, fields ...Field) Control {
	return Control{Tool: "click_ax", Tag: "button", Role: "button", Type: "submit", Name: name,
		InForm: true, FormMethod: method, FormAction: "https://example.com/form", FormFields: fields}
}

func toggleCtl(name string) Control {
	return Control{Tool: "click_ax", Tag: "input", Role: "checkbox", Type: "checkbox", Name: name}
}

func with(c Control, f func(*Control)) Control { f(&c); return c }

func fd(name, label, typ, value string) Field { return Field{name, label, typ, value} }

var (
	searchQ     = fd("q", "Search", "search", "usb cable")
	hiddenToken = fd("authenticity_token", "", "hidden", "abc123")
)

type classifyCase struct {
	name string
	c    Control
	want Category
	vals []string // "kind=substring" that must be among the values
}

var classifyCases = []classifyCase{
	// --- English: mail and chat ---
	{"gmail send", with(divBtn("Send \u202a(Ctrl-Enter)\u202c"), func(c *Control) {
		c.Dialog = "New Message To bob@example.com Subject Q3 report"
	}), CatSend, []string{"recipient=bob@example.com"}},
	{"gmail reply opens composer", divBtn("Reply"), CatNone, nil},
	{"add a named product to the cart", btn("Add Gift Card ($500) to cart"), CatPurchase, nil},
	{"go to cart is a view", btn("Go to cart"), CatNone, nil},
	{"an add-on with its price", btn("Add 3-year Protection Plan ($149)"), CatPurchase, nil},
	{"a price filter is a view", btn("Under $30"), CatNone, nil},
	{"script-driven invite among fields", with(btn("Invite as Admin"), func(c *Control) {
		c.InForm = true
		c.FormFields = []Field{{Name: "invitee", Label: "Email or username", Value: "ops@devops-helper.io"}}
	}), CatShare, []string{"recipient=ops@devops-helper.io", "role=admin"}},
	{"gmail forward opens composer", divBtn("Forward"), CatNone, nil},
	{"gmail compose", divBtn("Compose"), CatNone, nil},
	{"outlook send", with(btn("Send"), func(c *Control) { c.Title = "Send (Ctrl+Enter)" }), CatSend, nil},
	{"outlook send in form with To and body", submit("Send", "post",
		fd("to", "To", "email", "carol@contoso.com; dan@contoso.com"),
		fd("subject", "Subject", "text", "Budget"),
		fd("body", "Message body", "textarea", "Please find the budget attached.")),
		CatSend, []string{"recipient=carol@contoso.com", "recipient=dan@contoso.com", "text=Please find the budget"}},
	{"slack enter in composer", Control{Tool: "press_keys", Tag: "div", Role: "textbox", AriaLabel: "Message #general"}, CatSend, nil},
	{"slack send button", with(btn(""), func(c *Control) { c.AriaLabel = "Send now" }), CatSend, nil},
	{"discord enter to a user", Control{Tool: "press_keys", Tag: "div", Role: "textbox", AriaLabel: "Message @alice_dev"}, CatSend, []string{"recipient=@alice_dev"}},
	{"linkedin message opens composer", btn("Message"), CatNone, nil},
	{"contact form message without recipient", submit("Submit", "post",
		fd("name", "Your name", "text", "Ann"), fd("message", "Message", "textarea", "Hello")), CatSubmit, nil},

	// --- English: publishing ---
	{"x post button", with(btn("Post"), func(c *Control) { c.Record = "What is happening?!" }), CatPublish, []string{"item=What is happening"}},
	{"x reply opens composer", btn("Reply"), CatNone, nil},
	{"x reply inside reply dialog", inDialog("Reply", "Replying to @jack"), CatPublish, nil},
	{"reddit comment form", submit("Comment", "post", fd("comment", "Comment", "textarea", "Great write-up, thanks!")),
		CatPublish, []string{"text=Great write-up"}},
	{"github comment enter in form", Control{Tool: "type_ax", Tag: "textarea", InForm: true, FormMethod: "post",
		FormFields: []Field{fd("comment[body]", "Add a comment", "textarea", "LGTM")}}, CatPublish, []string{"text=LGTM"}},
	{"review submit", submit("Submit review", "post", fd("review", "Your review", "textarea", "Five stars")), CatPublish, nil},
	{"wordpress publish", btn("Publish"), CatPublish, nil},
	{"reply as submit in form", submit("Reply", "post", fd("body", "Reply", "textarea", "Agreed")), CatPublish, nil},

	// --- English: deletion ---
	{"github danger zone delete", btn("Delete this repository"), CatDelete, nil},
	{"github confirm delete", with(submit("I understand the consequences, delete this repository", "post",
		fd("verify", "To confirm, type octo/hello-world", "text", "octo/hello-world"), hiddenToken), func(c *Control) {
		c.Dialog = "Are you absolutely sure? This action cannot be undone. This will permanently delete the octo/hello-world repository."
	}), CatDelete, nil},
	{"github I understand in dialog", inDialog("I understand", "Are you absolutely sure? This will permanently delete the octo/hello-world repository"), CatDelete, nil},
	{"ok in delete dialog", inDialog("OK", "Delete this file? report.pdf will be deleted forever."), CatDelete, nil},
	{"cancel in delete dialog", inDialog("Cancel", "Delete this file?"), CatNone, nil},
	{"close in delete dialog", inDialog("Close", "Delete this file?"), CatNone, nil},
	{"account delete danger zone", btn("Delete account"), CatDelete, nil},
	{"revoke api token", with(btn("Revoke"), func(c *Control) { c.Record = "ci-deploy — Last used 3 days ago" }), CatDelete, []string{"item=ci-deploy"}},
	{"remove from cart", with(btn("Remove"), func(c *Control) { c.Record = "USB-C cable 2m $9.99" }), CatDelete, []string{"item=USB-C cable"}},
	{"cancel subscription", btn("Cancel subscription"), CatDelete, nil},
	{"cancel order", btn("Cancel order"), CatDelete, nil},
	{"yes cancel in subscription dialog", inDialog("Yes, cancel", "Cancel your subscription? You will lose access on May 1."), CatDelete, nil},
	{"no keep in subscription dialog", inDialog("No, keep it", "Cancel your subscription?"), CatNone, nil},
	{"newsletter unsubscribe button", submit("Unsubscribe", "post", fd("email", "Email", "email", "me@example.com")), CatDelete, nil},
	{"menu item delete", menuItem("Delete"), CatDelete, nil},
	{"menu item move to trash", menuItem("Move to trash"), CatDelete, nil},
	{"empty trash", btn("Empty trash now"), CatDelete, nil},
	{"mastodon delete menu entry", with(menuItem("Delete"), func(c *Control) { c.Record = "@me: hello fediverse" }), CatDelete, []string{"item=hello fediverse"}},

	// --- English: links ---
	{"gmail trash link", link("Trash", "https://mail.google.com/mail/u/0/#trash"), CatNavigate, []string{"url=#trash"}},
	{"delete-named link to a page", link("Delete", "https://example.com/posts/12"), CatNavigate, nil},
	{"link with action=delete", link("Delete", "https://example.com/item.php?action=delete&id=3"), CatDelete, []string{"url=action=delete"}},
	{"link with do=delete", link("x", "https://wiki.example.org/doku.php?id=start&do=delete"), CatDelete, nil},
	{"link to /remove path", link("Remove", "https://shop.example.com/cart/remove/4411"), CatDelete, nil},
	{"article about removing is ordinary", link("How to remove stains", "https://blog.example.com/how-to-remove-stains"), CatNavigate, nil},
	{"checkout link with cancel_url", link("Pay with card", "https://checkout.example.com/pay?session=cs_1&cancel_url=https%3A%2F%2Fshop.example.com"), CatNavigate, nil},
	{"delete key in query", link("x", "https://example.com/admin?delete=12"), CatDelete, nil},
	{"delete.php link", link("x", "https://forum.example.com/delete.php?post=77"), CatDelete, nil},
	{"label with an is no address row", submit("Save", "post", fd("amt", "Enter an amount", "text", "")), CatPayment, nil},
	{"host named delete is ordinary", link("Docs", "https://delete.example.com/docs"), CatNavigate, nil},
	{"logout link is ordinary", link("Sign out", "https://example.com/logout"), CatNavigate, nil},
	{"wordpress trash action link", link("Trash", "https://blog.example.com/wp-admin/post.php?post=12&action=trash&_wpnonce=ab12"), CatDelete, nil},
	{"unsubscribe link", link("Unsubscribe", "https://news.example.com/unsubscribe?u=abc123"), CatDelete, nil},
	{"buy now link navigates", link("Buy now", "https://shop.example.com/products/tee"), CatNavigate, nil},
	{"hash link named delete is a button", link("Delete", "#"), CatDelete, nil},
	{"javascript link named rename", link("Rename", "javascript:void(0)"), CatNone, nil},

	// --- English: menus, tabs, toggles, view ---
	{"menu item rename", menuItem("Rename"), CatNone, nil},
	{"menu item reply inside a dialog", with(menuItem("Reply"), func(c *Control) { c.Dialog = "Conversation with Ann" }), CatNone, nil},
	{"drive remove access menu item", with(menuItem("Remove access"), func(c *Control) {
		c.Dialog = "Share \"Q3 Report\" bob@example.com Editor"
		c.Record = "Bob Lee bob@example.com Editor"
	}), CatDelete, []string{"item=Bob Lee"}},
	{"next in GET search form", submit("Next", "get", searchQ, fd("page", "", "hidden", "2")), CatNone, nil},
	{"formatting button in composer form", with(btn("Bold"), func(c *Control) { c.InForm = true; c.FormMethod = "post" }), CatNone, nil},
	{"menu item reply", menuItem("Reply"), CatNone, nil},
	{"popup launcher more actions", Control{Tool: "click_ax", Tag: "button", Role: "popupbutton", Name: "More actions"}, CatNone, nil},
	{"popup launcher new", Control{Tool: "click_ax", Tag: "button", Role: "popupbutton", Name: "Create"}, CatNone, nil},
	{"tab settings", Control{Tool: "click_ax", Tag: "a", Role: "tab", Name: "Settings"}, CatNone, nil},
	{"tab named delete still a tab", Control{Tool: "click_ax", Tag: "button", Role: "tab", Name: "Deleted"}, CatNone, nil},
	{"disclosure summary", Control{Tool: "click_ax", Tag: "summary", Role: "disclosuretriangle", Name: "Danger zone"}, CatNone, nil},
	{"show filters toggle", btn("Show filters"), CatNone, nil},
	{"clear filters", btn("Clear filters"), CatNone, nil},
	{"remove search term", btn("Remove search term"), CatNone, nil},
	{"delete filter chip", btn("Delete filter"), CatNone, nil},
	{"captions do not join into phrases", with(btn("Delete"), func(c *Control) { c.Title = "Filter" }), CatDelete, nil},
	{"next page of results", btn("Next page"), CatNone, nil},
	{"next outside form", btn("Next"), CatNone, nil},
	{"back", btn("Back"), CatNone, nil},
	{"buy more is a purchase", btn("Buy more"), CatPurchase, nil},
	{"show more", btn("Show more"), CatNone, nil},
	{"keep editing declines", inDialog("Keep editing", "Discard this post?"), CatNone, nil},
	{"accept all cookies", btn("Accept all"), CatNone, nil},
	{"share button opens share sheet", btn("Share"), CatNone, nil},
	{"invite opens dialog", btn("Invite people"), CatNone, nil},
	{"edit opens editor", btn("Edit"), CatNone, nil},
	{"select is a field", Control{Tool: "set_field", Tag: "select", Role: "combobox", Name: "Role"}, CatNone, nil},
	{"aria combobox is a field", Control{Tool: "click_ax", Tag: "div", Role: "combobox", Name: "Assignee"}, CatNone, nil},
	{"choosing in a suggestion field", Control{Tool: "set_field", Tag: "input", Role: "combobox", Type: "text", Name: "Payee",
		InForm: true, FormMethod: "post", FormFields: []Field{fd("payee", "Payee", "text", "Jane Doe"), fd("amount", "Amount", "text", "50.00")}}, CatNone, nil},
	{"file chooser in a form", Control{Tool: "click_ax", Tag: "input", Role: "button", Type: "file", Name: "Submit your CV",
		InForm: true, FormMethod: "post", FormFields: []Field{fd("cv", "Submit your CV", "file", "")}}, CatNone, nil},
	{"enter in a suggestion field sends its form", Control{Tool: "press_keys", Tag: "input", Role: "combobox", Type: "text", Name: "Payee",
		InForm: true, FormMethod: "post", FormFields: []Field{fd("payee", "Payee", "text", "Jane Doe"), fd("amount", "Amount", "text", "50.00")}},
		CatPayment, []string{"amount=50.00"}},
	{"typing in a field", Control{Tool: "set_field", Tag: "input", Role: "textbox", Type: "text", Name: "Amount"}, CatNone, nil},
	{"typing in textarea", Control{Tool: "type", Tag: "textarea", Role: "textbox", Name: "Comment"}, CatNone, nil},
	{"reset button", with(submit("Reset", "post"), func(c *Control) { c.Type = "reset" }), CatNone, nil},

	// --- English: forms ---
	{"search GET form", submit("Search", "get", searchQ), CatNone, nil},
	{"search GET form icon button", submit("", "get", searchQ, fd("sort", "Sort by", "select-one", "price")), CatNone, nil},
	{"search GET form go", submit("Go", "get", searchQ), CatNone, nil},
	{"search GET submit caption", submit("Submit", "get", fd("query", "Find", "text", "x")), CatNone, nil},
	{"search by enter", Control{Tool: "press_keys", Tag: "input", Role: "searchbox", Type: "search", InForm: true, FormMethod: "get", FormFields: []Field{searchQ}}, CatNone, nil},
	{"dialog method form", submit("", "dialog", fd("x", "Name", "text", "a")), CatNone, nil},
	{"settings save", submit("Save", "post", fd("display_name", "Display name", "text", "Ann")), CatSubmit, nil},
	{"save changes outside form", btn("Save changes"), CatSubmit, nil},
	{"save draft stays submit", submit("Save draft", "post", fd("to", "To", "email", "a@b.co"), fd("body", "Body", "textarea", "hi")), CatSubmit, nil},
	{"password change save", submit("Save", "post", fd("old_password", "Current password", "password", "x"),
		fd("new_password", "New password", "password", "y"), fd("confirm", "Confirm new password", "password", "y")), CatAccount, nil},
	{"login is a submit", submit("Sign in", "post", fd("email", "Email", "email", "me@example.com"), fd("password", "Password", "password", "x")), CatSubmit, nil},
	{"sign up", submit("Sign up", "post", fd("email", "Email", "email", "me@example.com")), CatSubmit, nil},
	{"rsvp", btn("RSVP"), CatSubmit, nil},
	{"job apply", submit("Apply", "post", fd("resume", "Resume", "file", "cv.pdf")), CatSubmit, nil},
	{"shipping form with postcode is a submit", submit("Continue", "post", fd("address1", "Address", "text", "1 Main St"), fd("postcode", "Postcode", "text", "SW1A 1AA")), CatSubmit, nil},
	{"next step of checkout form", submit("Next", "post", fd("address", "Street address", "text", "1 Main St")), CatSubmit, nil},
	{"continue in form with amount is payment", submit("Continue", "post",
		fd("recipient_name", "Recipient", "text", "Jane Doe"),
		fd("iban", "IBAN", "text", "GB82 WEST 1234 5698 7654 32"),
		fd("amount", "Amount", "text", "500.00"), fd("currency", "Currency", "select-one", "GBP")),
		CatPayment, []string{"recipient=Jane Doe", "account=GB82 WEST", "amount=500.00 GBP"}},
	{"confirm transfer dialog", inDialog("Confirm", "Transfer €500.00 to Jane Doe (GB82 WEST 1234 5698 7654 32)?"), CatPayment,
		[]string{"amount=€500.00", "account=GB82 WEST 1234 5698 7654 32"}},
	{"stripe refund", with(submit("Refund", "post", fd("amount", "Refund amount", "text", "25.00"), fd("reason", "Reason", "select-one", "requested_by_customer")),
		func(c *Control) { c.Dialog = "Refund payment of €25.00" }), CatPayment, []string{"amount=25.00", "amount=€25.00"}},
	{"card payment form generic", submit("Submit", "post", fd("cardnumber", "Card number", "text", "4242 4242 4242 4242"), fd("exp", "MM / YY", "text", "12/30")),
		CatPayment, []string{"account=…4242"}},
	{"pay now", with(btn("Pay now"), func(c *Control) { c.Record = "Total $47.98" }), CatPayment, []string{"amount=$47.98"}},
	{"wise send money", submit("Send money", "post", fd("amount", "You send", "text", "100")), CatPayment, nil},
	{"donate", btn("Donate"), CatPayment, nil},
	{"auto-pay switch", Control{Tool: "click_ax", Tag: "button", Role: "switch", Name: "Auto-pay"}, CatPayment, nil},

	// --- English: shopping ---
	{"shopify add to cart", with(submit("Add to cart", "post", fd("id", "", "hidden", "4411"), fd("quantity", "Quantity", "number", "1")),
		func(c *Control) { c.Record = "Classic Tee — $25.00" }), CatPurchase, []string{"amount=$25.00", "item=Classic Tee"}},
	{"amazon buy now input", Control{Tool: "click_ax", Tag: "input", Type: "submit", Value: "Buy Now", InForm: true, FormMethod: "post"}, CatPurchase, nil},
	{"amazon place your order", with(submit("Place your order", "post"), func(c *Control) { c.Record = "Order total: $47.98" }), CatPayment, []string{"amount=$47.98"}},
	{"amazon proceed to checkout", Control{Tool: "click_ax", Tag: "input", Type: "submit", Value: "Proceed to checkout", InForm: true, FormMethod: "post"}, CatPayment, nil},
	{"subscribe", btn("Subscribe"), CatPurchase, nil},
	{"ebay place bid", btn("Place bid"), CatPurchase, nil},
	{"book a room", submit("Book now", "post"), CatPurchase, nil},

	// --- English: sharing and account ---
	{"drive share dialog send", inDialog("Send", "Share \"Q3 Report\" alice@example.com Editor Notify people"),
		CatShare, []string{"recipient=alice@example.com", "role=editor"}},
	{"drive share form with role", submit("Share", "post", fd("emails", "Add people and groups", "email", "alice@example.com"), fd("role", "Role", "select-one", "Editor")),
		CatShare, []string{"recipient=alice@example.com", "role=Editor"}},
	{"drive anyone with the link", Control{Tool: "click_ax", Tag: "input", Type: "radio", Name: "Anyone with the link"}, CatShare, nil},
	{"calendar make changes to events", toggleCtl("Make changes to events"), CatShare, []string{"role=make changes to events"}},
	{"calendar share with", with(btn("Share with"), func(c *Control) { c.Dialog = "Share with specific people bob@example.com" }), CatShare, []string{"recipient=bob@example.com"}},
	{"calendar send in share dialog", inDialog("Send", "Share with specific people or groups bob@example.com See all event details"), CatShare, []string{"recipient=bob@example.com"}},
	{"github add collaborator admin", submit("Add collaborator", "post", fd("username", "Search by username", "text", "octocat"), fd("permission", "Role", "select-one", "admin")),
		CatShare, []string{"recipient=octocat", "role=admin"}},
	{"make admin checkbox", toggleCtl("Make admin"), CatShare, []string{"role=admin"}},
	{"allow editing switch", Control{Tool: "click_ax", Role: "switch", Name: "Allow editing"}, CatShare, nil},
	{"terms checkbox is nothing", toggleCtl("I agree to the Terms of Service"), CatNone, nil},
	{"newsletter checkbox is nothing", toggleCtl("Send me product updates"), CatNone, nil},
	{"transfer ownership", btn("Transfer ownership"), CatShare, nil},
	{"generate new token", submit("Generate token", "post", fd("note", "Note", "text", "ci")), CatAccount, nil},
	{"generate new token button", btn("Generate new token"), CatAccount, nil},
	{"oauth authorize", submit("Authorize octo-app", "post"), CatAccount, nil},
	{"sign out of all devices", btn("Sign out of all devices"), CatAccount, nil},
	{"2fa switch", Control{Tool: "click_ax", Role: "switch", Name: "Two-factor authentication"}, CatAccount, nil},

	// --- German ---
	{"de senden", btn("Senden"), CatSend, nil},
	{"de veröffentlichen", btn("Veröffentlichen"), CatPublish, nil},
	{"de löschen", btn("Löschen"), CatDelete, nil},
	{"de abo kündigen", btn("Abo kündigen"), CatDelete, nil},
	{"de jetzt kaufen", btn("Jetzt kaufen"), CatPurchase, nil},
	{"de in den warenkorb", submit("In den Warenkorb", "post"), CatPurchase, nil},
	{"de überweisen", submit("Überweisen", "post", fd("iban", "IBAN des Empfängers", "text", "DE89 3704 0044 0532 0130 00"),
		fd("betrag", "Betrag", "text", "500,00"), fd("waehrung", "Währung", "text", "EUR")),
		CatPayment, []string{"account=DE89 3704 0044 0532 0130 00", "amount=500,00 EUR"}},
	{"de zahlungspflichtig bestellen", btn("Zahlungspflichtig bestellen"), CatPayment, nil},
	{"de rückerstattung", btn("Rückerstattung veranlassen"), CatPayment, nil},
	{"de teilen im dialog", inDialog("Teilen", "Freigeben für anna@beispiel.de"), CatShare, []string{"recipient=anna@beispiel.de"}},
	{"de teilen außerhalb", btn("Teilen"), CatNone, nil},
	{"de passwort ändern", btn("Passwort ändern"), CatAccount, nil},
	{"de speichern", submit("Speichern", "post", fd("name", "Name", "text", "Anna")), CatSubmit, nil},
	{"de registrieren", submit("Registrieren", "post"), CatSubmit, nil},
	{"de abbrechen im dialog", inDialog("Abbrechen", "Datei löschen?"), CatNone, nil},
	{"de weiter im löschdialog", inDialog("Weiter", "Konto endgültig löschen?"), CatDelete, nil},
	{"de papierkorb link", link("Papierkorb", "https://mail.example.de/papierkorb"), CatNavigate, nil},
	{"de filter entfernen", btn("Filter entfernen"), CatNone, nil},

	// --- French ---
	{"fr envoyer", btn("Envoyer"), CatSend, nil},
	{"fr publier", btn("Publier"), CatPublish, nil},
	{"fr supprimer", btn("Supprimer"), CatDelete, nil},
	{"fr se désabonner", btn("Se désabonner"), CatDelete, nil},
	{"fr ajouter au panier", submit("Ajouter au panier", "post"), CatPurchase, nil},
	{"fr passer la commande", btn("Passer la commande"), CatPayment, nil},
	{"fr virement", with(submit("Effectuer le virement", "post", fd("montant", "Montant", "text", "1 250,00 €")), func(c *Control) {}), CatPayment, []string{"amount=1 250,00 €"}},
	{"fr rembourser", btn("Rembourser"), CatPayment, nil},
	{"fr partager dialogue", inDialog("Partager", "Partager « Budget » avec marie@exemple.fr"), CatShare, []string{"recipient=marie@exemple.fr"}},
	{"fr mot de passe", btn("Changer le mot de passe"), CatAccount, nil},
	{"fr enregistrer", submit("Enregistrer", "post", fd("nom", "Nom", "text", "Marie")), CatSubmit, nil},
	{"fr annuler dialogue", inDialog("Annuler", "Supprimer ce fichier ?"), CatNone, nil},
	{"fr oui dialogue", inDialog("Oui", "Voulez-vous vraiment supprimer ce fichier ?"), CatDelete, nil},
	{"fr corbeille lien", link("Corbeille", "https://mail.example.fr/corbeille"), CatNavigate, nil},

	// --- Spanish ---
	{"es enviar", btn("Enviar"), CatSend, nil},
	{"es publicar", btn("Publicar"), CatPublish, nil},
	{"es eliminar", btn("Eliminar"), CatDelete, nil},
	{"es cancelar suscripción", btn("Cancelar suscripción"), CatDelete, nil},
	{"es cancelar dialog", inDialog("Cancelar", "¿Eliminar este archivo?"), CatNone, nil},
	{"es añadir a la cesta", submit("Añadir a la cesta", "post"), CatPurchase, nil},
	{"es transferir", submit("Transferir", "post", fd("cuenta", "Cuenta destino", "text", "ES91 2100 0418 4502 0005 1332"), fd("importe", "Importe", "text", "75,50 €")),
		CatPayment, []string{"account=ES91 2100 0418 4502 0005 1332", "amount=75,50 €"}},
	{"es reembolsar", btn("Reembolsar"), CatPayment, nil},
	{"es pagar ahora", btn("Pagar ahora"), CatPayment, nil},
	{"es compartir dialog", inDialog("Compartir", "Compartir con personas y grupos"), CatShare, nil},
	{"es cambiar contraseña", btn("Cambiar contraseña"), CatAccount, nil},
	{"es guardar", submit("Guardar", "post", fd("nombre", "Nombre", "text", "Ana")), CatSubmit, nil},
	{"es papelera link", link("Papelera", "https://mail.example.es/papelera"), CatNavigate, nil},
	{"es buscar GET", submit("Buscar", "get", fd("q", "Buscar", "search", "mesa")), CatNone, nil},

	// --- Portuguese ---
	{"pt enviar mensagem", btn("Enviar mensagem"), CatSend, nil},
	{"pt publicar", btn("Publicar"), CatPublish, nil},
	{"pt excluir", btn("Excluir"), CatDelete, nil},
	{"pt apagar menu", menuItem("Apagar"), CatDelete, nil},
	{"pt adicionar ao carrinho", submit("Adicionar ao carrinho", "post"), CatPurchase, nil},
	{"pt comprar agora", btn("Comprar agora"), CatPurchase, nil},
	{"pt confirmar pagamento", with(btn("Confirmar pagamento"), func(c *Control) { c.Record = "Total: R$ 129,90" }), CatPayment, []string{"amount=R$ 129,90"}},
	{"pt transferir", submit("Continuar", "post", fd("conta", "Conta", "text", "12345-6"), fd("valor", "Valor", "text", "R$ 300,00")),
		CatPayment, []string{"account=12345-6", "amount=R$ 300,00"}},
	{"pt compartilhar dialog", inDialog("Compartilhar", "Compartilhar com joao@exemplo.com.br"), CatShare, []string{"recipient=joao@exemplo.com.br"}},
	{"pt alterar senha", btn("Alterar senha"), CatAccount, nil},
	{"pt salvar", submit("Salvar", "post", fd("nome", "Nome", "text", "João")), CatSubmit, nil},
	{"pt cadastrar", submit("Cadastrar", "post"), CatSubmit, nil},
	{"pt lixeira link", link("Lixeira", "https://mail.example.com.br/lixeira"), CatNavigate, nil},

	// --- Chinese (simplified and traditional) ---
	{"zh 发送", divBtn("发送"), CatSend, nil},
	{"zh 發送", divBtn("發送"), CatSend, nil},
	{"zh 发布", btn("发布"), CatPublish, nil},
	{"zh 發佈", btn("發佈"), CatPublish, nil},
	{"zh 删除", btn("删除"), CatDelete, nil},
	{"zh 刪除", menuItem("刪除"), CatDelete, nil},
	{"zh 取消订阅", btn("取消订阅"), CatDelete, nil},
	{"zh 取消 dialog", inDialog("取消", "确定要删除此文件吗？"), CatNone, nil},
	{"zh 确定 dialog", inDialog("确定", "确定要删除此文件吗？"), CatDelete, nil},
	{"zh 加入购物车", btn("加入购物车"), CatPurchase, nil},
	{"zh 加入購物車", btn("加入購物車"), CatPurchase, nil},
	{"zh 立即购买", btn("立即购买"), CatPurchase, nil},
	{"zh 提交订单", with(btn("提交订单"), func(c *Control) { c.Record = "实付款 ¥128.00" }), CatPayment, []string{"amount=¥128.00"}},
	{"zh 转账", submit("下一步", "post", fd("account", "收款账户", "text", "6222 0202 0000 1234 567"), fd("amount", "转账金额", "text", "500元")),
		CatPayment, []string{"account=6222 0202 0000 1234 567", "amount=500元"}},
	{"zh 轉帳 button", btn("轉帳"), CatPayment, nil},
	{"zh 退款", btn("退款"), CatPayment, nil},
	{"zh 共享 dialog", inDialog("共享", "与他人共享 wang@example.cn 可编辑"), CatShare, []string{"recipient=wang@example.cn", "role=可编辑"}},
	{"zh 修改密码", btn("修改密码"), CatAccount, nil},
	{"zh 修改密碼", btn("修改密碼"), CatAccount, nil},
	{"zh 保存", submit("保存", "post", fd("name", "昵称", "text", "小王")), CatSubmit, nil},
	{"zh 注册", submit("注册", "post"), CatSubmit, nil},
	{"zh 回收站 link", link("回收站", "https://mail.example.cn/trash"), CatNavigate, nil},
	{"zh 搜索 GET", submit("搜索", "get", fd("wd", "搜索", "text", "数据线")), CatNone, nil},

	// --- Japanese ---
	{"ja 送信", btn("送信"), CatSend, nil},
	{"ja 投稿", btn("投稿する"), CatPublish, nil},
	{"ja 削除", btn("削除"), CatDelete, nil},
	{"ja 解約", btn("解約する"), CatDelete, nil},
	{"ja はい dialog", inDialog("はい", "このファイルを削除しますか？"), CatDelete, nil},
	{"ja キャンセル dialog", inDialog("キャンセル", "このファイルを削除しますか？"), CatNone, nil},
	{"ja カートに入れる", submit("カートに入れる", "post"), CatPurchase, nil},
	{"ja 今すぐ購入", btn("今すぐ購入"), CatPurchase, nil},
	{"ja 振込", inDialog("確定", "山田太郎様へ 50,000円 を振込します"), CatPayment, []string{"amount=50,000円"}},
	{"ja 返金", btn("返金する"), CatPayment, nil},
	{"ja 注文を確定", btn("注文を確定する"), CatPayment, nil},
	{"ja 共有 dialog", inDialog("共有", "ユーザーと共有 taro@example.jp 編集者"), CatShare, []string{"recipient=taro@example.jp", "role=編集者"}},
	{"ja パスワードを変更", btn("パスワードを変更"), CatAccount, nil},
	{"ja 保存", submit("保存", "post", fd("name", "名前", "text", "太郎")), CatSubmit, nil},
	{"ja 登録", submit("登録する", "post"), CatSubmit, nil},
	{"ja ゴミ箱 link", link("ゴミ箱", "https://mail.example.jp/trash"), CatNavigate, nil},
	{"ja 次へ outside form", btn("次へ"), CatNone, nil},

	{"ja 注文する", btn("注文する"), CatPayment, nil},
	{"zh 立即下单", btn("立即下单"), CatPayment, nil},
	{"zh 确认删除 dialog", inDialog("确认删除", "删除后无法恢复"), CatDelete, nil},
	{"de jetzt bestellen", submit("Jetzt bestellen", "post"), CatPayment, nil},
	{"fr commander", btn("Commander"), CatPayment, nil},
	{"github confirm merge", submit("Confirm merge", "post"), CatSubmit, nil},
	{"slack delete message menu", menuItem("Delete message"), CatDelete, nil},
	{"code block in composer is no deletion", with(btn("Code block"), func(c *Control) { c.InForm = true; c.FormMethod = "post" }), CatNone, nil},
	{"send payment", btn("Send payment"), CatPayment, nil},
	{"submit order", submit("Submit order", "post"), CatPayment, nil},
	{"fr confirmer la suppression", inDialog("Confirmer la suppression", "Supprimer le dossier ?"), CatDelete, nil},
	{"es enviar pedido", btn("Enviar pedido"), CatPayment, nil},
	{"zh 撤回", menuItem("撤回"), CatDelete, nil},
	{"zh 充值", btn("充值"), CatPayment, nil},
	{"send invite is a share", inDialog("Send invite", "Invite people to Acme"), CatShare, nil},

	// --- Italian and Dutch ---
	{"it aggiungi al carrello", btn("Aggiungi al carrello"), CatPurchase, nil},
	{"nl verwijderen", btn("Verwijderen"), CatDelete, nil},
}

func TestClassify(t *testing.T) {
	for _, tc := range classifyCases {
		got := Classify(tc.c)
		if got.Category != tc.want {
			t.Errorf("%s: category %q, want %q (caption %s)", tc.name, got.Category, tc.want, got.Caption)
			continue
		}
		if tc.want != CatNone && got.Caption == "" {
			t.Errorf("%s: no caption", tc.name)
		}
		for _, v := range tc.vals {
			kind, sub, _ := strings.Cut(v, "=")
			found := false
			for _, g := range got.Values {
				if g.Kind == kind && strings.Contains(g.Value, sub) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: no value %s in %+v", tc.name, v, got.Values)
			}
		}
	}
	if len(classifyCases) < 120 {
		t.Errorf("only %d cases", len(classifyCases))
	}
	// Every category has a row in every language (rows named "de …").
	for _, lang := range []string{"de", "fr", "es", "pt", "zh", "ja"} {
		seen := map[Category]bool{}
		for _, tc := range classifyCases {
			if strings.HasPrefix(tc.name, lang+" ") {
				seen[tc.want] = true
			}
		}
		for _, c := range allCats {
			if !seen[c] {
				t.Errorf("no %s row for %q", lang, c)
			}
		}
	}
}

func TestRequested(t *testing.T) {
	cases := []struct {
		task string
		want []Category // must be asked for
		not  []Category // must not be
	}{
		// English
		{"email Bob the report", []Category{CatSend}, []Category{CatPublish, CatDelete}},
		{"buy the cheapest cable", []Category{CatPurchase, CatPayment}, nil},
		{"delete my draft", []Category{CatDelete}, []Category{CatSend}},
		{"Please remove the old invoices from the list.", []Category{CatDelete}, nil},
		{"can you send the invoice to alice@example.com?", []Category{CatSend}, nil},
		{"add the blue mug to my cart", []Category{CatPurchase}, []Category{CatPayment}},
		{"reply to John's email and say yes", []Category{CatSend}, nil},
		{"answer the email from HR", []Category{CatSend}, nil},
		{"post a comment saying thanks", []Category{CatPublish}, nil},
		{"write a review for the blender", []Category{CatPublish}, nil},
		{"share the doc with alice@example.com", []Category{CatShare}, nil},
		{"invite Bob to the workspace", []Category{CatShare}, nil},
		{"give access to Carol", []Category{CatShare}, nil},
		{"change my password to something stronger", []Category{CatAccount}, nil},
		{"fill in and submit the form", []Category{CatSubmit}, nil},
		{"sign up for the newsletter", []Category{CatSubmit}, nil},
		{"book a table for two at 8pm", []Category{CatSubmit, CatPurchase}, nil},
		{"transfer €50 to Jane", []Category{CatPayment}, nil},
		{"cancel my Netflix subscription", []Category{CatDelete}, nil},
		{"order two pizzas", []Category{CatPurchase, CatPayment}, nil},
		{"refund the last order", []Category{CatPayment}, nil},
		{"don't delete anything", nil, []Category{CatDelete}},
		{"do not send the email yet", nil, []Category{CatSend}},
		{"never buy anything", nil, []Category{CatPurchase, CatPayment}},
		{"how to delete my account?", nil, []Category{CatDelete}},
		{"summarize this page", nil, allCats},
		{"what's in my cart?", nil, allCats},
		{"check my order status", nil, allCats},
		{"read the comments on this post", nil, allCats},
		{"summarize this post", nil, allCats},
		{"find the cheapest flight to Lisbon", nil, allCats},
		{"read the reply from Bob", nil, allCats},
		{"read the reply to my question", nil, allCats},
		{"read the comment on this post", nil, allCats},
		{"check the refund status", nil, allCats},
		{"what was my last purchase?", nil, allCats},
		{"when will Bob's order arrive?", nil, allCats},
		{"let's order pizza", []Category{CatPurchase, CatPayment}, nil},
		{"please go ahead and place the order", []Category{CatPurchase, CatPayment}, nil},
		{"add Ann as an admin", []Category{CatShare}, nil},
		{"revoke the old token", []Category{CatDelete}, nil},
		{"compare the prices and tell me which to buy", nil, allCats},
		{"what does the delete button do?", nil, allCats},
		{"tell me what to reply to Bob", nil, allCats},
		{"which plan should I subscribe to?", nil, allCats},
		{"find a hotel in Lisbon, but don't book anything", nil, allCats},
		{"Zeige meine Bestellungen", nil, allCats},
		{"Montre-moi mes commandes", nil, allCats},
		{"Muéstrame mis pedidos", nil, allCats},
		{"Mostre meus pedidos", nil, allCats},
		{"显示我的订单", nil, allCats},
		{"注文履歴を見せて", nil, allCats},
		// German
		{"Lösche den Entwurf", []Category{CatDelete}, nil},
		{"Bitte sende Bob den Bericht", []Category{CatSend}, nil},
		{"Kaufe das günstigste Kabel", []Category{CatPurchase, CatPayment}, nil},
		{"Leg die Tasse in den Warenkorb", []Category{CatPurchase}, []Category{CatPayment}},
		{"Teile das Dokument mit Anna", []Category{CatShare}, nil},
		{"Ändere mein Passwort", []Category{CatAccount}, nil},
		{"Überweise 50 € an Jana", []Category{CatPayment}, nil},
		{"Veröffentliche den Beitrag", []Category{CatPublish}, nil},
		{"Bitte nicht löschen", nil, []Category{CatDelete}},
		{"Lösche die Datei nicht", nil, []Category{CatDelete}},
		{"Sende keine E-Mail", nil, []Category{CatSend}},
		{"Fasse diese Seite zusammen", nil, allCats},
		{"Was liegt in meinem Warenkorb?", nil, allCats},
		// French
		{"Supprime mon brouillon", []Category{CatDelete}, nil},
		{"Envoie le rapport à Bob", []Category{CatSend}, nil},
		{"Achète le câble le moins cher", []Category{CatPurchase, CatPayment}, nil},
		{"Ajoute ce livre au panier", []Category{CatPurchase}, []Category{CatPayment}},
		{"Partage le document avec Anne", []Category{CatShare}, nil},
		{"Change mon mot de passe", []Category{CatAccount}, nil},
		{"Publie le commentaire", []Category{CatPublish}, nil},
		{"Fais un virement de 50 € à Jeanne", []Category{CatPayment}, nil},
		{"Ne supprime pas le fichier", nil, []Category{CatDelete}},
		{"N'envoie pas l'e-mail", nil, []Category{CatSend}},
		{"Comment supprimer mon compte ?", nil, []Category{CatDelete}},
		{"Résume cette page", nil, allCats},
		// Spanish
		{"Borra mi borrador", []Category{CatDelete}, nil},
		{"Envía el informe a Bob", []Category{CatSend}, nil},
		{"Compra el cable más barato", []Category{CatPurchase, CatPayment}, nil},
		{"Añade esto al carrito", []Category{CatPurchase}, []Category{CatPayment}},
		{"Comparte el documento con Ana", []Category{CatShare}, nil},
		{"Cambia mi contraseña", []Category{CatAccount}, nil},
		{"Publica el comentario", []Category{CatPublish}, nil},
		{"Transfiere 50 € a Juan", []Category{CatPayment}, nil},
		{"No quiero comprar nada", nil, []Category{CatPurchase, CatPayment}},
		{"No elimines nada", nil, []Category{CatDelete}},
		{"Resume esta página", nil, allCats},
		{"¿Cuál es el estado de mi pedido?", nil, allCats},
		{"Revisa mi compra de ayer", nil, allCats},
		// Portuguese
		{"Apague o rascunho", []Category{CatDelete}, nil},
		{"Envie o relatório para o Bob", []Category{CatSend}, nil},
		{"Compre o cabo mais barato", []Category{CatPurchase, CatPayment}, nil},
		{"Adicione ao carrinho", []Category{CatPurchase}, []Category{CatPayment}},
		{"Compartilhe o documento com a Ana", []Category{CatShare}, nil},
		{"Altere minha senha", []Category{CatAccount}, nil},
		{"Publique o comentário", []Category{CatPublish}, nil},
		{"Transfira 50 reais para o João", []Category{CatPayment}, nil},
		{"Não apague nada", nil, []Category{CatDelete}},
		{"Não envie o e-mail", nil, []Category{CatSend}},
		{"Resuma esta página", nil, allCats},
		// Chinese
		{"删除我的草稿", []Category{CatDelete}, nil},
		{"刪除我的草稿", []Category{CatDelete}, nil},
		{"把报告发送给Bob", []Category{CatSend}, nil},
		{"帮我买最便宜的数据线", []Category{CatPurchase, CatPayment}, nil},
		{"加入购物车", []Category{CatPurchase}, []Category{CatPayment}},
		{"把文档共享给小王", []Category{CatShare}, nil},
		{"修改密码", []Category{CatAccount}, nil},
		{"发布这条评论", []Category{CatPublish}, nil},
		{"给张三转账500元", []Category{CatPayment}, nil},
		{"不要删除任何东西", nil, []Category{CatDelete}},
		{"请勿发送邮件", nil, []Category{CatSend}},
		{"如何删除账户", nil, []Category{CatDelete}},
		{"总结这个页面", nil, allCats},
		{"总结买家评论", nil, allCats},
		{"查看共享文件夹", nil, allCats},
		{"导出转账记录", nil, allCats},
		{"查看已删除的邮件", nil, allCats},
		// Japanese
		{"下書きを削除して", []Category{CatDelete}, nil},
		{"Bobにレポートを送って", []Category{CatSend}, nil},
		{"一番安いケーブルを買って", []Category{CatPurchase, CatPayment}, nil},
		{"カートに入れて", []Category{CatPurchase}, []Category{CatPayment}},
		{"ドキュメントを共有して", []Category{CatShare}, nil},
		{"パスワードを変更して", []Category{CatAccount}, nil},
		{"コメントを投稿して", []Category{CatPublish}, nil},
		{"5000円を振り込んで", []Category{CatPayment}, nil},
		{"削除しないで", nil, []Category{CatDelete}},
		{"送信しないでください", nil, []Category{CatSend}},
		{"このページを要約して", nil, allCats},
		{"注文状況を確認して", nil, allCats},
	}
	for _, tc := range cases {
		got := Requested(tc.task)
		for _, c := range tc.want {
			if !got[c] {
				t.Errorf("%q: %q not requested (got %v)", tc.task, c, got)
			}
		}
		for _, c := range tc.not {
			if got[c] {
				t.Errorf("%q: %q requested (got %v)", tc.task, c, got)
			}
		}
	}
}

var allCats = []Category{CatNavigate, CatSubmit, CatSend, CatPublish, CatDelete, CatPayment, CatPurchase, CatShare, CatAccount}

// BenchmarkClassify is the cost of one verdict, averaged over the table.
func BenchmarkClassify(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Classify(classifyCases[i%len(classifyCases)].c)
		i++
	}
}

func BenchmarkRequested(b *testing.B) {
	for b.Loop() {
		Requested("Please reply to John's email, then delete the draft and don't buy anything")
	}
}

func TestCaptionQuotesTheDecidingControl(t *testing.T) {
	cases := []struct {
		c    Control
		want string
	}{
		{btn("Delete account"), `button "Delete account"`},
		{inDialog("OK", "Delete this repository?"), `button "OK" in dialog "Delete this repository?"`},
		{link("Delete", "https://example.com/x?action=delete"), `link "Delete" to https://example.com/x?action=delete`},
		{submit("Save", "post", fd("new_password", "New password", "password", "x")), `button "Save" (form sets a password)`},
	}
	for _, tc := range cases {
		if got := Classify(tc.c).Caption; got != tc.want {
			t.Errorf("caption %s, want %s", got, tc.want)
		}
	}
}

// Secrets in the form are never shown back, and values come only from
// the page: a card number is masked, a password is left out.
func TestValuesKeepSecrets(t *testing.T) {
	c := submit("Save", "post", fd("password", "Current password", "password", "hunter2"),
		fd("new_password", "New password", "password", "s3cret!"), fd("new_password2", "Repeat", "password", "s3cret!"))
	got := Classify(c)
	if got.Category != CatAccount {
		t.Fatalf("category %q", got.Category)
	}
	for _, v := range got.Values {
		if strings.Contains(v.Value, "hunter2") || strings.Contains(v.Value, "s3cret") {
			t.Errorf("secret echoed: %+v", v)
		}
	}
	card := Classify(submit("Pay", "post", fd("cc-number", "Card number", "text", "4242 4242 4242 4242")))
	for _, v := range card.Values {
		if strings.Contains(v.Value, "4242 4242") {
			t.Errorf("card number echoed: %+v", v)
		}
	}
}

func TestValueScanners(t *testing.T) {
	if got := amounts("Transfer €500.00, then USD 1,234.56 and 1 250,00 € or 300円 but not 2024 or 12 items"); strings.Join(got, "|") != "€500.00|USD 1,234.56|1 250,00 €|300円" {
		t.Errorf("amounts %q", got)
	}
	if got := ibans("to DE89 3704 0044 0532 0130 00 (Jane)"); len(got) != 1 || got[0] != "DE89 3704 0044 0532 0130 00" {
		t.Errorf("ibans %q", got)
	}
	if got := emails("To: bob@example.com, carol.d@mail.example.org."); strings.Join(got, "|") != "bob@example.com|carol.d@mail.example.org" {
		t.Errorf("emails %q", got)
	}
	if got := handles("cc @alice_dev and bob@example.com"); strings.Join(got, "|") != "@alice_dev" {
		t.Errorf("handles %q", got)
	}
}
