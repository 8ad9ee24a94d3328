module github.com/medkb/medkb/docs/peers

go 1.26.8

require (
	github.com/medkb/medkb v0.0.0
	github.com/philippgille/chromem-go v0.7.0
)

require (
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	github.com/viterin/vek v0.4.3 // indirect
	golang.org/x/exp v0.0.0-20240808152545-0cdaa3abc0fa // indirect
	golang.org/x/sys v0.49.0 // indirect
)

// The benchmark measures this repository's own index/vector.
replace github.com/medkb/medkb => ../..
