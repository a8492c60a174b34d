package skills

import (
	"strings"
	"testing"

	"github.com/webbrain/webbrain/wasm/protocol"
)

func TestUserSkillsParseWithOrWithoutMetadata(t *testing.T) {
	plain, err := ParseUser("weekly-report", "# Weekly report\n\nWrite my weekly status report from the tickets I closed.\n\n1. Group by project.\n2. Keep it under 200 words.")
	if err != nil || plain.Name != "Weekly report" || !strings.HasPrefix(plain.Summary, "Write my weekly status report") ||
		len(plain.Modes) != 1 || plain.Modes[0] != protocol.ModeAct {
		t.Fatalf("%+v %v", plain, err)
	}
	agent, err := ParseUser("pr-review", "---\nname: PR review\ndescription: Review a pull request for risky changes.\n---\nRead the diff. List risky changes first.")
	if err != nil || agent.Name != "PR review" || agent.Summary != "Review a pull request for risky changes." {
		t.Fatalf("%+v %v", agent, err)
	}
	fenced, err := ParseUser("glossary", "# Glossary\n\n```webbrain-skill\n{\"summary\": \"Explain jargon.\", \"modes\": [\"ask\"]}\n```\n\nExplain each term simply.")
	if err != nil || fenced.Modes[0] != protocol.ModeAsk {
		t.Fatalf("%+v %v", fenced, err)
	}
	if _, err := ParseUser("Bad Id", "# X\n\ntext"); err == nil {
		t.Error("a bad id was accepted")
	}
	if _, err := ParseUser("keys", "# Keys\n\nUse the token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 to log in."); err == nil {
		t.Error("a skill holding a token was accepted")
	}
}

func idsOf(ss []Skill) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}

func TestPutRefusesPackagedIDsAndCatalogOffersEnabledUserSkills(t *testing.T) {
	if _, _, err := Put(nil, Stored{ID: "humanizer", Markdown: "# Mine\n\nMy own humanizer.", Enabled: true}); err == nil {
		t.Fatal("a user skill took a packaged id")
	}
	all, _, err := Put(nil, Stored{ID: "weekly-report", Markdown: "# Weekly report\n\nWrite my weekly report.", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	all, _, _ = Put(all, Stored{ID: "off", Markdown: "# Off\n\nA disabled skill.", Enabled: false})
	got := idsOf(Catalog(all, protocol.ModeAct, "full"))
	if !strings.Contains(strings.Join(got, ","), "weekly-report") || strings.Contains(strings.Join(got, ","), "off") {
		t.Fatalf("act catalog %v", got)
	}
	if got := idsOf(Catalog(all, protocol.ModeAsk, "full")); strings.Contains(strings.Join(got, ","), "weekly-report") {
		t.Fatalf("an act-only user skill in Ask: %v", got)
	}
	if got := Catalog(all, protocol.ModeAct, protocol.TierCompact); len(got) != 0 {
		t.Fatalf("compact catalog %v", got)
	}
}

// Settings exports a skill under front matter with JSON-quoted values;
// importing the file gives the same skill, tools included.
func TestExportedSkillImportsTheSame(t *testing.T) {
	md := "# Notes \"work\"\n\nRead the user's notes.\n\n```webbrain-tools\n{\"tools\": [{\"name\": \"find_notes\", \"kind\": \"http\", \"readOnly\": true, \"method\": \"GET\", " +
		"\"endpoint\": \"https://api.notes.example/v1/search\", \"parameters\": {\"type\": \"object\", \"properties\": {\"q\": {\"type\": \"string\"}}, \"required\": [\"q\"]}}]}\n```\n"
	orig, err := ParseUser("notes", md)
	if err != nil {
		t.Fatal(err)
	}
	exported := "---\nname: \"Notes \\\"work\\\"\"\ndescription: \"Read the user's notes.\"\n---\n\n" + md
	back, err := ParseUser("notes", exported)
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != orig.Name || back.Summary != orig.Summary || back.Instructions != orig.Instructions || len(back.Tools) != 1 {
		t.Errorf("exported and imported: %+v\noriginal: %+v", back, orig)
	}
}
