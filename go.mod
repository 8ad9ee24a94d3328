module github.com/medkb/medkb

go 1.26.8
