/** A small movie index for the preview's browser tests (titles with one-line summaries written for these tests). */
export interface Movie {
  id: number
  title: string
  overview: string
  genre: string
  year: number
  rating: number
}

const ROWS: [string, string, string, number, number][] = [
  ['The Dark Knight', 'A masked vigilante faces a criminal who wants to watch the city burn.', 'action', 2008, 9.0],
  ['Dark Waters', 'A corporate lawyer takes on a chemical company that poisoned a town.', 'drama', 2019, 7.6],
  ['Knight and Day', 'A woman is pulled into the travels of a secret agent on the run.', 'comedy', 2010, 6.3],
  ['Dark City', 'A man wakes with no memory in a city where night never ends.', 'science fiction', 1998, 7.6],
  ['The Dark Crystal', 'A gelfling sets out to heal a shard of a broken crystal.', 'fantasy', 1982, 7.1],
  ['Zero Dark Thirty', 'An analyst spends a decade hunting one man.', 'thriller', 2012, 7.4],
  ['Into the Dark Forest', 'Hikers lose the trail and meet something older than the trees.', 'horror', 2016, 5.2],
  ['Heat', 'A detective and a thief circle each other across Los Angeles.', 'thriller', 1995, 8.3],
  ['Arrival', 'A linguist learns the language of visitors whose ships hang over Earth.', 'science fiction', 2016, 7.9],
  ['Amelie', 'A shy waitress quietly arranges happiness for the people around her.', 'comedy', 2001, 8.3],
  ['Spirited Away', 'A girl works in a bathhouse for spirits to free her parents.', 'fantasy', 2001, 8.6],
  ['Parasite', 'A poor family talks its way into a rich household, one job at a time.', 'thriller', 2019, 8.5],
  ['Mad Max: Fury Road', 'A drifter and a rebel warrior flee a tyrant across the desert.', 'action', 2015, 8.1],
  ['The Grand Budapest Hotel', 'A concierge and his lobby boy are framed for murder.', 'comedy', 2014, 8.1],
  ['Moonlight', 'Three chapters in the life of a young man growing up in Miami.', 'drama', 2016, 7.4],
  ['Alien', 'The crew of a cargo ship answers a distress call and brings something back.', 'horror', 1979, 8.5],
  ['Inception', 'A thief steals secrets by entering dreams, and is asked to plant one.', 'science fiction', 2010, 8.8],
  ['Whiplash', 'A drummer meets a teacher who will push him past every limit.', 'drama', 2014, 8.5],
  ['Die Hard', 'A police officer is trapped in a tower taken over by thieves.', 'action', 1988, 8.2],
  ['Paddington 2', 'A bear in London is wrongly jailed for stealing a pop-up book.', 'comedy', 2017, 7.8],
  ['Get Out', 'A weekend visit to his girlfriend\'s parents turns into a trap.', 'horror', 2017, 7.8],
  ['The Lord of the Rings', 'A hobbit carries a ring of power toward the mountain that made it.', 'fantasy', 2001, 8.9],
  ['Gravity', 'Two astronauts are stranded after debris destroys their shuttle.', 'science fiction', 2013, 7.7],
  ['Spotlight', 'Reporters uncover years of abuse covered up by a church.', 'drama', 2015, 8.1],
  ['John Wick', 'A retired hitman returns for the people who killed his dog.', 'action', 2014, 7.4],
  ['Knives Out', 'A detective untangles the family of a novelist found dead.', 'thriller', 2019, 7.9],
  ['Coco', 'A boy who dreams of music crosses into the land of the dead.', 'fantasy', 2017, 8.4],
  ['The Night Of The Hunter', 'A preacher stalks two children who know where money is hidden.', 'thriller', 1955, 8.0],
  ['Night Knight', 'A knight guards a village that only wakes after sunset.', 'fantasy', 2021, 5.9],
  ['Groundhog Day', 'A weatherman lives the same day over and over.', 'comedy', 1993, 8.0],
  ['Interstellar', 'Explorers travel through a wormhole to find a new home for humanity.', 'science fiction', 2014, 8.7],
  ['The Shining', 'A writer and his family spend the winter in an empty hotel.', 'horror', 1980, 8.4],
]

export const MOVIES: Movie[] = ROWS.map(([title, overview, genre, year, rating], i) => ({ id: i + 1, title, overview, genre, year, rating }))

export const MOVIE_SETTINGS = {
  searchableAttributes: ['title', 'overview', 'genre'],
  filterableAttributes: ['genre', 'year'],
  sortableAttributes: ['year', 'rating'],
}
