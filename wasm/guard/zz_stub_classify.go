package guard

// TEMPORARY: replaced by classify.go from the classifier branch.

type Category string

const (
	CatNone     Category = ""
	CatNavigate Category = "navigate"
	CatSubmit   Category = "submit"
	CatSend     Category = "send"
	CatPublish  Category = "publish"
	CatDelete   Category = "delete"
	CatPayment  Category = "payment"
	CatPurchase Category = "purchase"
	CatShare    Category = "share"
	CatAccount  Category = "account"
)

type Field struct{ Name, Label, Type, Value string }

type Control struct {
	Tool                    string
	Tag, Role, Type         string
	Name                    string
	Text                    string
	Title, AriaLabel, Value string
	Href                    string
	InForm                  bool
	FormAction, FormMethod  string
	FormFields              []Field
	FormName                string
	Record                  string
	Dialog                  string
	PageURL                 string
	PageTitle               string
}

type Value struct{ Kind, Label, Value string }

type Classification struct {
	Category Category
	Caption  string
	Values   []Value
}

func Classify(c Control) Classification {
	if c.Href != "" {
		return Classification{Category: CatNavigate}
	}
	if c.Type == "submit" {
		return Classification{Category: CatSubmit, Caption: c.Name}
	}
	return Classification{}
}

func Requested(task string) map[Category]bool { return map[Category]bool{} }
