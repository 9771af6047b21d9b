import GRDB

/// The data a new examples database starts with.
enum ExampleSeed {
    /// Inserts the seed data unless the database already has products: a restarted server must
    /// show what people changed, not the seed again.
    static func seedIfEmpty(_ db: Database) throws {
        guard try Product.fetchCount(db) == 0 else { return }
        for product in products { try product.insert(db) }
        for (position, title) in todos.enumerated() {
            try Todo(id: nil, title: title, isDone: position < 2, position: position).insert(db)
        }
        try seedPeople(db)
        for image in galleryImages { try image.insert(db) }
        try seedDestination(db)
    }

    static let products: [Product] = {
        let catalogue: [(String, [(String, Int, String)])] = [
            ("Coffee", [
                ("Espresso beans, 1 kg", 2450, "Dark roast from Minas Gerais"), ("Filter blend, 500 g", 1290, "Bright, fruity, for pour-over"),
                ("Decaf Colombia, 250 g", 890, "Swiss-water decaffeinated"), ("Cold brew pack", 1590, "Six coarse-ground filter bags"),
                ("Single origin Ethiopia, 250 g", 1150, "Yirgacheffe, washed"), ("Ristretto capsules ×20", 790, "Compatible with most machines"),
            ]),
            ("Tea", [
                ("Sencha, 100 g", 990, "Steamed green tea from Shizuoka"), ("Earl Grey, 250 g", 850, "Black tea with bergamot"),
                ("Rooibos vanilla, 200 g", 720, "Caffeine-free, naturally sweet"), ("Matcha ceremonial, 30 g", 2290, "Stone-ground tencha"),
                ("Darjeeling first flush, 100 g", 1690, "Castleton estate"), ("Chamomile flowers, 80 g", 590, "Whole Egyptian blossoms"),
            ]),
            ("Brewing", [
                ("Pour-over dripper", 2490, "Ceramic, size 02"), ("Gooseneck kettle", 5900, "Temperature control to the degree"),
                ("Burr grinder", 12900, "40 grind settings"), ("French press, 1 l", 3490, "Double-walled steel"),
                ("Paper filters ×100", 490, "Unbleached"), ("Digital scale", 2990, "0.1 g resolution with timer"),
            ]),
            ("Cups", [
                ("Espresso cups ×2", 1890, "Porcelain, 80 ml"), ("Travel mug", 2290, "Leak-proof, 350 ml"),
                ("Glass tea pot", 3290, "With steel infuser, 800 ml"), ("Latte bowl", 1490, "Hand-glazed stoneware"),
                ("Cappuccino set", 3990, "Two cups and saucers"), ("Double-wall glasses ×2", 2190, "Borosilicate, 250 ml"),
            ]),
            ("Snacks", [
                ("Almond biscotti", 590, "Twice-baked, 200 g"), ("Dark chocolate 70 %", 390, "Single bar, 100 g"),
                ("Stroopwafels ×8", 450, "Caramel syrup waffles"), ("Salted caramels", 690, "Handmade, 150 g"),
                ("Oat cookies", 490, "With raisins, 250 g"), ("Candied ginger", 550, "Crystallised, 120 g"),
            ]),
        ]
        let rows = catalogue.flatMap { category, items in items.map { (category, $0) } }
        return rows.enumerated().map { offset, row in
            let (category, item) = row
            return Product(id: Int64(offset + 1), name: item.0, category: category, priceCents: item.1, stock: 2 + (offset * 7) % 40, summary: item.2)
        }
    }()

    static let todos = [
        "Book the train to Ljubljana", "Renew the passport", "Buy a rain jacket", "Water the plants",
        "Write the release notes", "Call the plumber", "Back up the laptop", "Send the birthday card",
    ]

    private static func seedPeople(_ db: Database) throws {
        let people: [(String, String, String, [(String, String, String, Double, String)])] = [
            ("Ada Moreau", "ada@example.com", "Lyon", [("Biscuit", "Dog", "Beagle", 11.2, "biscuit.svg")]),
            ("Bram de Vries", "bram@example.com", "Utrecht", [("Luna", "Cat", "British Shorthair", 4.6, "luna.svg"),
                                                              ("Pepper", "Dog", "Dachshund", 7.9, "pepper.svg")]),
            ("Chiara Rossi", "chiara@example.com", "Bologna", [("Mochi", "Cat", "Scottish Fold", 3.8, "mochi.svg")]),
            ("Dmitri Volkov", "dmitri@example.com", "Tallinn", []),
            ("Elif Kaya", "elif@example.com", "Izmir", [("Ziggy", "Rabbit", "Holland Lop", 1.7, "ziggy.svg"),
                                                      ("Olive", "Dog", "Border Collie", 17.5, "olive.svg")]),
            ("Finn Olsen", "finn@example.com", "Bergen", []),
        ]
        for (name, email, city, pets) in people {
            try User(id: nil, name: name, email: email, city: city).insert(db)
            let userID = db.lastInsertedRowID
            for pet in pets {
                try Pet(id: nil, name: pet.0, species: pet.1, breed: pet.2, weightKilograms: pet.3, avatar: pet.4, userId: userID).insert(db)
            }
        }
    }

    static let galleryImages: [GalleryImage] = [
        ("Harbour at dawn", "harbour-dawn.svg", "Noor Haddad"), ("Alpine lake", "alpine-lake.svg", "Jonas Berg"),
        ("Desert dunes", "desert-dunes.svg", "Amina Diallo"), ("Pine forest", "pine-forest.svg", "Sven Lund"),
        ("City at night", "city-night.svg", "Mei Tanaka"), ("Lavender field", "lavender-field.svg", "Lucie Bernard"),
        ("Glacier bay", "glacier-bay.svg", "Kai Andersen"), ("Autumn road", "autumn-road.svg", "Rosa Martín"),
        ("Coral reef", "coral-reef.svg", "Tomás Silva"), ("Canyon rim", "canyon-rim.svg", "Grace Walker"),
        ("Tea terraces", "tea-terraces.svg", "Arjun Rao"), ("Northern lights", "northern-lights.svg", "Ingrid Holm"),
    ].map { GalleryImage(id: nil, title: $0.0, file: $0.1, photographer: $0.2) }

    private static func seedDestination(_ db: Database) throws {
        let bled = Destination(
            id: nil, name: "Lake Bled", location: "Upper Carniola, Slovenia",
            summary: "A glacial lake below the Julian Alps with a church on its only island, a castle on the cliff above, and cream cake in every café.",
            photo: "/public/images/destination/photo.svg", map: "/public/images/destination/map.svg",
            latitude: 46.3636, longitude: 14.0938, address: "Cesta svobode 10, 4260 Bled, Slovenia",
            website: "https://www.bled.si", phone: "+386 4 574 11 22", rating: 4.7, shownReviews: 5
        )
        try bled.insert(db)
        let destinationID = db.lastInsertedRowID
        let authors = ["Hannah", "Luka", "Priya", "Mateo", "Sofia", "Yuki", "Oskar", "Amelia", "Nikolai", "Zainab"]
        let remarks = [
            "Rowed out to the island at sunrise; nobody else there.", "The cream cake lives up to the legend.",
            "Busy in August, go early or late.", "The walk around the lake takes about two hours.",
            "Castle views are worth the climb.", "Rang the wishing bell three times, no regrets.",
            "Swimming area on the west shore is lovely.", "Vintgar gorge nearby is a must.",
            "Pletna boat ride was calm and beautiful.", "Parking is expensive, take the bus from Ljubljana.",
            "Ojstrica viewpoint at golden hour: unforgettable.", "Rainy day but still magical.",
        ]
        for position in 0..<25 {
            let review = Review(
                id: nil, destinationId: destinationID, author: authors[position % authors.count] + " " + String(UnicodeScalar(UInt8(65 + position % 26))) + ".",
                stars: 3 + (position * 7) % 3, text: remarks[position % remarks.count], position: position
            )
            try review.insert(db)
        }
    }
}
